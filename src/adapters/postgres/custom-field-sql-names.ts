import { AppError } from "../../domain/errors.js";

/*
 * Names embedded in custom field SQL as literals or identifiers, never as parameters: each is
 * checked against a pattern that admits no quote, so none can end the literal it sits in.
 */

const FIELD_KEY = /^[a-z_]{1,64}$/;
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;
const QUALIFIED_COLUMN = /^[a-z_][a-z0-9_]{0,62}(?:\.[a-z_][a-z0-9_]{0,62})?$/;

export function assertKey(key: string): void {
  if (!FIELD_KEY.test(key)) throw new AppError("INVALID_FILTER", `"${key.slice(0, 80)}" is not a valid field key`);
}

export function assertColumn(column: string): void {
  if (!QUALIFIED_COLUMN.test(column)) throw new AppError("VALIDATION_FAILED", `"${column.slice(0, 80)}" is not a valid column`);
}

export function assertIdentifier(name: string, what: string): void {
  if (!IDENTIFIER.test(name)) throw new AppError("VALIDATION_FAILED", `"${name.slice(0, 80)}" is not a valid ${what}`);
}
