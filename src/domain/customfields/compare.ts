/**
 * Type-aware comparison shared by rule conditions and formulas: numbers numerically (a numeric
 * string against a number too, since request bodies often carry numbers as text), ISO dates as
 * instants, other strings by code unit, booleans false < true. Anything else is incomparable.
 */
import { parseDateText, parseNumberText, toEpochMs } from "./scalars.js";

/** Negative, zero or positive like a sort comparator; undefined when the values do not compare. */
export function compareValues(a: unknown, b: unknown): number | undefined {
  if (typeof a === "number" && typeof b === "number") return numeric(a, b);
  if (typeof a === "number" && typeof b === "string") return numericWithText(a, b, 1);
  if (typeof a === "string" && typeof b === "number") return numericWithText(b, a, -1);
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  if (a instanceof Date || b instanceof Date) return instants(a, b);
  if (typeof a === "string" && typeof b === "string") {
    const da = parseDateText(a);
    const db = parseDateText(b);
    if (da && db) return sign(da.epochMs - db.epochMs);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return undefined;
}

/** Equality by compareValues, null equals undefined, plain arrays and objects structurally. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) {
    return (a === null || a === undefined) && (b === null || b === undefined);
  }
  const order = compareValues(a, b);
  if (order !== undefined) return order === 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => valuesEqual(item, b[i]));
  }
  if (isPlainRecord(a) && isPlainRecord(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && valuesEqual(a[key], b[key]));
  }
  return false;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function numeric(a: number, b: number): number | undefined {
  if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
  return sign(a - b);
}

/** `direction` keeps the operand order when the number came second. */
function numericWithText(n: number, text: string, direction: 1 | -1): number | undefined {
  const parsed = parseNumberText(text);
  if (parsed === undefined) return undefined;
  const order = numeric(n, parsed);
  return order === undefined ? undefined : order * direction;
}

function instants(a: unknown, b: unknown): number | undefined {
  const ea = toEpochMs(a);
  const eb = toEpochMs(b);
  return ea === undefined || eb === undefined ? undefined : sign(ea - eb);
}

function sign(n: number): number {
  // Infinity - Infinity is NaN; equal infinities are equal.
  if (Number.isNaN(n)) return 0;
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}
