/**
 * Enum casing at the API edge: storage and domain use UPPER_SNAKE (RULE_BASED), JSON responses
 * use lowercase kebab (rule-based), input accepts exactly one of those two forms.
 */
import type { FieldViolation } from "../errors.js";
import { DEFAULT_STRATEGIES, FIELD_TYPES, type DefaultStrategy, type FieldType } from "./definition.js";

export type Parsed<T> = { ok: true; value: T } | { ok: false; violation: FieldViolation };

/** RULE_BASED -> rule-based. */
export function toKebab(value: string): string {
  return value.toLowerCase().replaceAll("_", "-");
}

export function fieldTypeToApi(value: FieldType): string {
  return toKebab(value);
}

export function defaultStrategyToApi(value: DefaultStrategy): string {
  return toKebab(value);
}

export function parseFieldType(input: unknown, field = "fieldType"): Parsed<FieldType> {
  return parseEnum(input, FIELD_TYPES, field);
}

export function parseDefaultStrategy(input: unknown, field = "defaultStrategy"): Parsed<DefaultStrategy> {
  return parseEnum(input, DEFAULT_STRATEGIES, field);
}

/** Mixed forms (Rule-Based, rule_based, RULE-BASED) are refused: only the two documented ones. */
function parseEnum<T extends string>(input: unknown, allowed: readonly T[], field: string): Parsed<T> {
  if (typeof input === "string") {
    for (const value of allowed) {
      if (input === value || input === toKebab(value)) return { ok: true, value };
    }
  }
  const accepted = allowed.map(toKebab).join(", ");
  return {
    ok: false,
    violation: { field, description: `must be one of ${accepted} (or the UPPER_SNAKE form)` },
  };
}
