import { AppError } from "../../domain/errors.js";
import type { FieldType } from "../../domain/customfields/definition.js";
import { foldedTextExpression, rangeExpression } from "./custom-field-expressions.js";
import { assertIdentifier } from "./custom-field-sql-names.js";

/**
 * A GIN trigram index on the folded text at `key`, serving icontains (`LIKE '%x%'`), which no
 * btree can. tenant_id is not in it (GIN over text needs btree_gin); the tenant condition is a
 * filter on the few rows the trigrams leave.
 */
export function foldedIndexDdl(table: string, column: string, key: string, indexName: string): string {
  assertIdentifier(table, "table");
  assertIdentifier(column, "column");
  assertIdentifier(indexName, "index name");
  return `CREATE INDEX IF NOT EXISTS ${indexName} ON ${table} USING gin (${foldedTextExpression(column, key)} gin_trgm_ops)`;
}

/**
 * A btree index on (tenant_id, typed expression) for range filters and sorting on one field. The
 * expression is built by the same function as the query's, so the planner matches it.
 */
export function expressionIndexDdl(
  table: string,
  column: string,
  key: string,
  fieldType: FieldType,
  indexName: string,
): string {
  assertIdentifier(table, "table");
  assertIdentifier(column, "column");
  assertIdentifier(indexName, "index name");
  const expression = rangeExpression(fieldType, column, key);
  if (expression === undefined) {
    throw new AppError("VALIDATION_FAILED", `a ${fieldType} field has no typed expression index; containment serves it`);
  }
  return `CREATE INDEX IF NOT EXISTS ${indexName} ON ${table} (tenant_id, ${expression})`;
}
