/**
 * One value against one field: the type check (with the coercions of the spec's table) and then
 * the constraints, in the table's order. The first failing check is the field's one violation.
 */
import { isAppError } from "../errors.js";
import type { FieldDefinition, FieldType, FieldValidation } from "./definition.js";
import { matchesPattern, type OverBudget, type PatternUse } from "./pattern.js";
import { parseBooleanText, parseDateText, parseNumberText } from "./scalars.js";
import { valueSizeProblem } from "./value-size.js";

export type Checked = { ok: true; value: unknown } | { ok: false; description: string };

type CheckedDefinition = Pick<FieldDefinition, "fieldType" | "uiConfig">;

/** Type check, coercion, then constraints of `validation` (a pattern runs as `patterns` says). */
export function checkValue(def: CheckedDefinition, raw: unknown, validation: FieldValidation, patterns?: PatternUse): Checked {
  return checkValueTraced(def, raw, validation, patterns).checked;
}

/** One constraint checked on a value, by its name in FieldValidation ("type" for the type check). */
export interface ConstraintCheck {
  name: string;
  passed: boolean;
}

/**
 * checkValue with the constraints it checked, in order, for an explanation: those before the
 * first failure passed, the failing one did not, later ones were not checked and are not listed.
 */
export function checkValueTraced(
  def: CheckedDefinition,
  raw: unknown,
  validation: FieldValidation,
  patterns?: PatternUse,
): { checked: Checked; constraints: ConstraintCheck[] } {
  // Size first: no parser or pattern sees a value larger than its type allows (value-size.ts).
  const tooLarge = valueSizeProblem(def.fieldType, raw);
  const typed = tooLarge === undefined ? coerceValue(def, raw) : fail(tooLarge);
  const constraints: ConstraintCheck[] = [{ name: "type", passed: typed.ok }];
  if (!typed.ok) return { checked: typed, constraints };
  for (const check of constraintChecks(def.fieldType, typed.value, validation, patterns)) {
    const problem = check.problem();
    constraints.push({ name: check.name, passed: problem === undefined });
    if (problem !== undefined) return { checked: fail(problem), constraints };
  }
  return { checked: typed, constraints };
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

interface NamedCheck {
  name: keyof FieldValidation;
  problem: () => string | undefined;
}

/** The constraints that apply to the value's type, in the table's order. */
function constraintChecks(type: FieldType, value: unknown, validation: FieldValidation, patterns?: PatternUse): NamedCheck[] {
  if (type === "STRING" && typeof value === "string") return stringChecks(value, validation, patterns);
  if (type === "NUMBER" && typeof value === "number") return numberChecks(value, validation);
  if (type === "DATE" && typeof value === "string") return dateChecks(value, validation);
  return [];
}

function stringChecks(value: string, v: FieldValidation, patterns?: PatternUse): NamedCheck[] {
  // Lengths count characters (code points), not UTF-16 units, as a user would.
  const length = (): number => [...value].length;
  const checks: NamedCheck[] = [];
  const { minLength, maxLength, pattern } = v;
  if (minLength !== undefined) {
    checks.push({ name: "minLength", problem: () => (length() < minLength ? `must be at least ${minLength} characters long` : undefined) });
  }
  if (maxLength !== undefined) {
    checks.push({ name: "maxLength", problem: () => (length() > maxLength ? `must be at most ${maxLength} characters long` : undefined) });
  }
  if (pattern !== undefined && pattern !== "") {
    checks.push({ name: "pattern", problem: () => patternProblem(pattern, value, patterns) });
  }
  const allowed = v.enum;
  if (allowed !== undefined && allowed.length > 0) {
    checks.push({ name: "enum", problem: () => (allowed.includes(value) ? undefined : `must be one of: ${listForMessage(allowed)}`) });
  }
  return checks;
}

function patternProblem(pattern: string, value: string, patterns?: PatternUse): string | undefined {
  const matched = patternMatches(pattern, value, patterns);
  if (matched === undefined) return `cannot be checked: the field's pattern is not usable`;
  if (typeof matched === "object" && "overBudget" in matched) return overBudgetProblem(pattern, matched);
  if (typeof matched === "object") return `is too long to be checked against the pattern ${pattern} (at most ${matched.maxBytes} bytes of UTF-8)`;
  return matched ? undefined : `must match the pattern ${pattern}`;
}

function overBudgetProblem(pattern: string, { overBudget, budgetSteps }: OverBudget): string {
  const not = `is not checked against the pattern ${pattern}`;
  if (overBudget === "match") return `${not}: the pattern matches of this request would take more than ${budgetSteps} steps; send fewer or shorter values`;
  return `${not}: compiling this request's patterns would take more than ${budgetSteps} steps; the entity type has more distinct patterns than one request may compile`;
}

/** A stored pattern refused by the engine fails the check rather than the whole request. */
function patternMatches(pattern: string, value: string, patterns?: PatternUse): ReturnType<typeof matchesPattern> | undefined {
  try {
    return matchesPattern(pattern, value, patterns);
  } catch (error) {
    if (isAppError(error) && error.reason === "UNSAFE_PATTERN") return undefined;
    throw error;
  }
}

function numberChecks(value: number, v: FieldValidation): NamedCheck[] {
  const checks: NamedCheck[] = [];
  const { min, max } = v;
  if (min !== undefined) checks.push({ name: "min", problem: () => (value < min ? `must be at least ${min}` : undefined) });
  if (max !== undefined) checks.push({ name: "max", problem: () => (value > max ? `must be at most ${max}` : undefined) });
  return checks;
}

/** minDate and maxDate are days: an instant is compared by its UTC calendar day. */
function dateChecks(value: string, v: FieldValidation): NamedCheck[] {
  const day = parseDateText(value)?.day ?? value;
  const checks: NamedCheck[] = [];
  const { minDate, maxDate } = v;
  if (minDate !== undefined) checks.push({ name: "minDate", problem: () => (day < minDate ? `must be on or after ${minDate}` : undefined) });
  if (maxDate !== undefined) checks.push({ name: "maxDate", problem: () => (day > maxDate ? `must be on or before ${maxDate}` : undefined) });
  return checks;
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
