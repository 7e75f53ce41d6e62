import type { FieldType } from "../../domain/customfields/definition.js";
import { assertColumn, assertKey } from "./custom-field-sql-names.js";

// One custom field inside the JSONB column, typed: filters and their indexes share these, so the planner matches them.

/** The value at `key` as numeric when it is a JSON number, else NULL. */
export function numericExpression(column: string, key: string): string {
  assertColumn(column);
  assertKey(key);
  return `(CASE WHEN jsonb_typeof(${column}->'${key}') = 'number' THEN (${column}->>'${key}')::numeric END)`;
}

/** The value at `key` as text when it is a JSON string, else NULL. Dates are stored normalized. */
export function textExpression(column: string, key: string): string {
  assertColumn(column);
  assertKey(key);
  return `(CASE WHEN jsonb_typeof(${column}->'${key}') = 'string' THEN ${column}->>'${key}' END)`;
}

/**
 * The text at `key` folded for case-insensitive matching: `casefold` under `pg_unicode_fast`
 * (PostgreSQL 18's builtin provider, versioned with the server, so the index never depends on an
 * OS or ICU library's case tables). The query and the index are built from this one function.
 */
export function foldedTextExpression(column: string, key: string): string {
  return `casefold(${textExpression(column, key)} COLLATE pg_unicode_fast)`;
}

/** Dates compare as normalized text; numbers (and computed values) as numeric. */
export function rangeExpression(fieldType: FieldType, column: string, key: string): string | undefined {
  switch (fieldType) {
    case "NUMBER":
    case "COMPUTED":
      return numericExpression(column, key);
    case "DATE":
    case "STRING":
    case "SELECT":
      return textExpression(column, key);
    default:
      return undefined;
  }
}
