/** A value read from untrusted bytes, or why it could not be read. Parsers never throw on content. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; why: string };

export function ok<T>(value: T): Parsed<T> {
  return { ok: true, value };
}

export function broken<T>(why: string): Parsed<T> {
  return { ok: false, why };
}
