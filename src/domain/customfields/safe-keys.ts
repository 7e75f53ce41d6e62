/**
 * Names that reach JavaScript's object machinery instead of data. Field keys, context path
 * segments and formula paths never resolve them, so hostile input cannot read or pollute
 * prototypes.
 */
const FORBIDDEN = new Set(["__proto__", "constructor", "prototype"]);

export function isForbiddenKey(name: string): boolean {
  return FORBIDDEN.has(name);
}

/** Own-property read: inherited members (toString, __proto__, ...) are never returned. */
export function ownValue(holder: unknown, key: string): unknown {
  if (holder === null || typeof holder !== "object") return undefined;
  if (isForbiddenKey(key)) return undefined;
  return Object.hasOwn(holder, key) ? (holder as Record<string, unknown>)[key] : undefined;
}

/** Copies a Map into a plain object through property definition, never through `[key] =`. */
export function toPlainObject(entries: ReadonlyMap<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(entries);
}
