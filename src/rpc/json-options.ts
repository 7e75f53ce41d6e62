/**
 * JSON output on every transport: all fields present (a REST client expects `isCurrent: false`,
 * not a missing key), proto field names in lowerCamelCase as the specification writes them.
 */
export const jsonWriteOptions = { alwaysEmitImplicit: true } as const;
