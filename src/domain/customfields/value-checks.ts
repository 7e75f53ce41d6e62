/**
 * One value against one field: the type check (with the coercions of the spec's table) and then
 * the constraints, in the table's order. The first failing check is the field's one violation.
 */
import { isAppError } from "../errors.js";
import type { FieldDefinition, FieldType, FieldValidation } from "./definition.js";
import { matchesPattern, type PatternUse } from "./pattern.js";
import { parseBooleanText, parseDateText, parseNumberText } from "./scalars.js";

export type Checked = { ok: true; value: unknown } | { ok: false; description: string };

type CheckedDefinition = Pick<FieldDefinition, "fieldType" | "uiConfig">;

/** Type check, coercion, then constraints of `validation` (a pattern runs as `patterns` says). */
export function checkValue(def: CheckedDefinition, raw: unknown, validation: FieldValidation, patterns?: PatternUse): Checked {
  const typed = coerceValue(def, raw);
  if (!typed.ok) return typed;
  const problem = constraintProblem(def.fieldType, typed.value, validation, patterns);
  return problem === undefined ? typed : { ok: false, description: problem };
}

/** The type check alone, giving the stored form of the value. */
export function coerceValue(def: CheckedDefinition, raw: unknown): Checked {
  switch (def.fieldType) {
    case "STRING":
      return typeof raw === "string" ? ok(raw) : fail("must be a string");
    case "NUMBER":
      return coerceNumber(raw);
    case "BOOLEAN":
      return coerceBoolean(raw);
    case "DATE":
      return coerceDate(raw);
    case "SELECT":
      return coerceSelect(def, raw);
    case "JSON":
      return isJsonValue(raw, 0) ? ok(raw) : fail("must be a JSON value (nested at most 64 levels)");
    case "COMPUTED":
      // Computed fields are calculated, not validated (spec, field validation by type).
      return ok(raw);
  }
}

/** Numbers, and text that is a finite decimal number ('12.5', '-3', '1e3'). */
function coerceNumber(raw: unknown): Checked {
  if (typeof raw === "number") return Number.isFinite(raw) ? ok(raw) : fail("must be a finite number");
  if (typeof raw === "string") {
    const parsed = parseNumberText(raw);
    if (parsed !== undefined) return ok(parsed);
  }
  return fail("must be a number");
}

function coerceBoolean(raw: unknown): Checked {
  if (typeof raw === "boolean") return ok(raw);
  const parsed = typeof raw === "string" ? parseBooleanText(raw) : undefined;
  return parsed === undefined ? fail("must be true or false") : ok(parsed);
}

/** Stored as 'YYYY-MM-DD' for a day, as a UTC ISO instant when a time was given. */
function coerceDate(raw: unknown): Checked {
  const parsed = typeof raw === "string" ? parseDateText(raw) : undefined;
  return parsed ? ok(parsed.normalized) : fail("must be a date (YYYY-MM-DD or ISO 8601)");
}

function coerceSelect(def: CheckedDefinition, raw: unknown): Checked {
  const options = def.uiConfig?.options ?? [];
  if (typeof raw === "string" && options.some((option) => option.value === raw)) return ok(raw);
  return fail(`must be one of: ${listForMessage(options.map((option) => option.value))}`);
}

function constraintProblem(type: FieldType, value: unknown, validation: FieldValidation, patterns?: PatternUse): string | undefined {
  if (type === "STRING" && typeof value === "string") return stringProblem(value, validation, patterns);
  if (type === "NUMBER" && typeof value === "number") return numberProblem(value, validation);
  if (type === "DATE" && typeof value === "string") return dateProblem(value, validation);
  return undefined;
}

function stringProblem(value: string, v: FieldValidation, patterns?: PatternUse): string | undefined {
  // Lengths count characters (code points), not UTF-16 units, as a user would.
  const length = [...value].length;
  if (v.minLength !== undefined && length < v.minLength) return `must be at least ${v.minLength} characters long`;
  if (v.maxLength !== undefined && length > v.maxLength) return `must be at most ${v.maxLength} characters long`;
  if (v.pattern !== undefined && v.pattern !== "") {
    const matched = patternMatches(v.pattern, value, patterns);
    if (matched === undefined) return `cannot be checked: the field's pattern is not usable`;
    if (!matched) return `must match the pattern ${v.pattern}`;
  }
  if (v.enum !== undefined && v.enum.length > 0 && !v.enum.includes(value)) {
    return `must be one of: ${listForMessage(v.enum)}`;
  }
  return undefined;
}

/** A stored pattern refused by the engine fails the check rather than the whole request. */
function patternMatches(pattern: string, value: string, patterns?: PatternUse): boolean | undefined {
  try {
    return matchesPattern(pattern, value, patterns);
  } catch (error) {
    if (isAppError(error) && error.reason === "UNSAFE_PATTERN") return undefined;
    throw error;
  }
}

function numberProblem(value: number, v: FieldValidation): string | undefined {
  if (v.min !== undefined && value < v.min) return `must be at least ${v.min}`;
  if (v.max !== undefined && value > v.max) return `must be at most ${v.max}`;
  return undefined;
}

/** minDate and maxDate are days: an instant is compared by its UTC calendar day. */
function dateProblem(value: string, v: FieldValidation): string | undefined {
  const day = parseDateText(value)?.day ?? value;
  if (v.minDate !== undefined && day < v.minDate) return `must be on or after ${v.minDate}`;
  if (v.maxDate !== undefined && day > v.maxDate) return `must be on or before ${v.maxDate}`;
  return undefined;
}

const MAX_JSON_DEPTH = 64;

/** Plain JSON data: null, booleans, finite numbers, strings, arrays and plain objects. */
export function isJsonValue(value: unknown, depth: number): boolean {
  if (depth > MAX_JSON_DEPTH) return false;
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  if (typeof value === "object") {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return false;
    return Object.values(value).every((item) => isJsonValue(item, depth + 1));
  }
  return false;
}

function listForMessage(values: readonly string[]): string {
  const shown = values.slice(0, 10).join(", ");
  return values.length > 10 ? `${shown}, ...` : shown;
}

function ok(value: unknown): Checked {
  return { ok: true, value };
}

function fail(description: string): Checked {
  return { ok: false, description };
}
