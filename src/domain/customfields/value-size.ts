/**
 * The largest value a custom field of each type accepts, checked before the type check so that no
 * parser, comparison or pattern ever sees more. The contract (proto/customfields/v1/*.proto,
 * proto/customers, proto/products) bounds every value of a request at MAX_VALUE_TEXT_LENGTH,
 * MAX_VALUE_LIST_ITEMS and MAX_VALUE_OBJECT_KEYS one level deep; protovalidate cannot tell the
 * field's type, so the per-type bounds below live here, each at most that global cap.
 */
import type { FieldType } from "./definition.js";

/** Global cap on one text value (contract: every string of a custom_fields Struct or a Value). */
export const MAX_VALUE_TEXT_LENGTH = 10_000;
/** Global cap on one list value (contract). */
export const MAX_VALUE_LIST_ITEMS = 1_000;
/** Global cap on the keys of one object value, and on a custom_fields Struct (contract). */
export const MAX_VALUE_OBJECT_KEYS = 500;

/** Per type, the longest text accepted; numbers, dates and booleans as text are short. */
export const MAX_TEXT_LENGTH_BY_TYPE: Readonly<Record<Exclude<FieldType, "JSON" | "COMPUTED">, number>> = {
  STRING: MAX_VALUE_TEXT_LENGTH,
  NUMBER: 100,
  // An ISO 8601 instant with fractional seconds and an offset is about 35 characters.
  DATE: 64,
  BOOLEAN: 16,
  // The contract's bound on SelectOption.value: a longer text matches no option.
  SELECT: 200,
};

/** A JSON value's size: 1 per node plus the characters of its strings and keys. */
export const MAX_JSON_VALUE_SIZE = 65_536;

/** Why `raw` is too large for a field of `type`, or undefined when it is not. */
export function valueSizeProblem(type: FieldType, raw: unknown): string | undefined {
  if (type === "COMPUTED") return undefined;
  if (type === "JSON") {
    return jsonSizeExceeds(raw, MAX_JSON_VALUE_SIZE) ? `must be a JSON value of at most ${MAX_JSON_VALUE_SIZE} characters and nodes` : undefined;
  }
  const max = MAX_TEXT_LENGTH_BY_TYPE[type];
  // UTF-16 units: an upper bound of the code points that STRING's minLength/maxLength count.
  if (typeof raw === "string" && raw.length > max) return `must be at most ${max} characters long`;
  return undefined;
}

/** Walks at most `limit` units of `value` (iteratively, whatever its depth) and stops there. */
function jsonSizeExceeds(value: unknown, limit: number): boolean {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    size += 1 + (typeof item === "string" ? item.length : 0);
    if (Array.isArray(item)) {
      // Each item adds at least 1, so items past the limit need not be queued.
      for (let i = 0; i < item.length && i <= limit - size; i++) pending.push(item[i]);
    } else if (item !== null && typeof item === "object") {
      for (const [key, inner] of Object.entries(item)) {
        size += key.length;
        pending.push(inner);
        if (size > limit) return true;
      }
    }
    if (size > limit) return true;
  }
  return false;
}
