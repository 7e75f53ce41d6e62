/**
 * Turns a parsed custom field filter into a PostgreSQL WHERE fragment over the JSONB column that
 * holds customFields. Pure string building: `?` placeholders (knex / MikroORM raw style), every
 * value a parameter. Field keys come from definitions and are embedded as SQL literals only after
 * matching ^[a-z_]{1,64}$, so they cannot carry quotes.
 *
 * Index-friendly shapes:
 * - eq / in: JSONB containment `column @> ?::jsonb`, served by a GIN (jsonb_path_ops) index.
 * - ranges: a typed expression guarded by jsonb_typeof, so a value of the wrong stored type is
 *   NULL (no match) instead of a cast error; expressionIndexDdl() (custom-field-index-ddl.ts)
 *   builds the matching index.
 * - icontains: the text expression case-folded by PostgreSQL's `casefold()` under the builtin
 *   `pg_unicode_fast` collation (full Unicode folding, independent of the database's locale, which
 *   is `C` for the embedded database, where lower()/ILIKE fold only ASCII: 'Ärger' ~ 'ärger',
 *   'ÉCOLE' ~ 'école', 'STRASSE' ~ 'straße'); the pattern is folded the same way in SQL.
 *   foldedIndexDdl() builds the matching trigram (pg_trgm) index, which serves infix patterns.
 */
import { AppError } from "../../domain/errors.js";
import type { FieldType } from "../../domain/customfields/definition.js";
import type { FilterClause, FilterValue, ParsedFilter } from "../../domain/customfields/filters.js";
import { foldedTextExpression, rangeExpression, textExpression } from "./custom-field-expressions.js";
import { assertColumn, assertKey } from "./custom-field-sql-names.js";

export interface SqlFragment {
  sql: string;
  params: (string | number | boolean)[];
}

/** All clauses AND-ed; an empty filter is `TRUE`. */
export function compileFilterSql(filter: ParsedFilter, column = "custom_fields"): SqlFragment {
  assertColumn(column);
  const params: SqlFragment["params"] = [];
  const parts = filter.clauses.map((clause) => compileClause(clause, column, params));
  return { sql: parts.length === 0 ? "TRUE" : parts.join(" AND "), params };
}

function compileClause(clause: FilterClause, column: string, params: SqlFragment["params"]): string {
  const { fieldKey: key, operator, values } = clause;
  assertKey(key);
  switch (operator) {
    case "eq":
      return containment(column, key, values[0], params);
    case "ne":
      return `NOT ${containment(column, key, values[0], params)}`;
    case "in":
      return anyContainment(column, key, values, params);
    case "nin":
      return `NOT ${anyContainment(column, key, values, params)}`;
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      return comparison(clause, column, RANGE_SQL[operator], params);
    case "between":
      return between(clause, column, params);
    case "contains":
      return like(column, key, "LIKE", `%${escapeLike(text(values[0]))}%`, params);
    case "icontains":
      return foldedLike(column, key, `%${escapeLike(text(values[0]))}%`, params);
    case "startswith":
      return like(column, key, "LIKE", `${escapeLike(text(values[0]))}%`, params);
    case "endswith":
      return like(column, key, "LIKE", `%${escapeLike(text(values[0]))}`, params);
    case "isnull":
      return values[0] === true ? isNull(column, key) : isNotNull(column, key);
  }
}

const RANGE_SQL = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/**
 * `column @> {"key": value}`. The object is built with Object.fromEntries, and the key is a
 * checked field key, so the JSON text is exactly one member. A row without the key never matches,
 * so `ne` (NOT containment) includes rows where the field is absent.
 */
function containment(column: string, key: string, value: FilterValue | undefined, params: SqlFragment["params"]): string {
  params.push(JSON.stringify(Object.fromEntries([[key, value ?? null]])));
  return `(${column} @> ?::jsonb)`;
}

/** An OR of containments: each arm can use the GIN index (BitmapOr). */
function anyContainment(column: string, key: string, values: FilterValue[], params: SqlFragment["params"]): string {
  if (values.length === 0) return "FALSE";
  const arms = values.map((value) => containment(column, key, value, params));
  return `(${arms.join(" OR ")})`;
}

function comparison(clause: FilterClause, column: string, op: string, params: SqlFragment["params"]): string {
  const expression = typedRangeExpression(clause, column);
  params.push(scalar(clause.values[0]));
  return `${expression} ${op} ${placeholder(clause.fieldType)}`;
}

/** Inclusive at both ends, as SQL BETWEEN is. */
function between(clause: FilterClause, column: string, params: SqlFragment["params"]): string {
  const expression = typedRangeExpression(clause, column);
  params.push(scalar(clause.values[0]), scalar(clause.values[1]));
  const p = placeholder(clause.fieldType);
  return `${expression} BETWEEN ${p} AND ${p}`;
}

function typedRangeExpression(clause: FilterClause, column: string): string {
  const expression = rangeExpression(clause.fieldType, column, clause.fieldKey);
  if (expression === undefined) {
    throw new AppError("INVALID_FILTER", `filter on "${clause.fieldKey}": ${clause.operator} does not apply to a ${clause.fieldType} field`);
  }
  return expression;
}

function placeholder(fieldType: FieldType): string {
  return fieldType === "DATE" || fieldType === "STRING" || fieldType === "SELECT" ? "?::text" : "?::numeric";
}

/** Folding leaves the LIKE metacharacters and the escape character as they are. */
function foldedLike(column: string, key: string, pattern: string, params: SqlFragment["params"]): string {
  params.push(pattern);
  return `${foldedTextExpression(column, key)} LIKE casefold(?::text COLLATE pg_unicode_fast) ESCAPE '\\'`;
}

function like(column: string, key: string, op: "LIKE", pattern: string, params: SqlFragment["params"]): string {
  params.push(pattern);
  return `${textExpression(column, key)} ${op} ? ESCAPE '\\'`;
}

/** Absent key, or present as JSON null. `?` (key exists) is avoided: it is the placeholder. */
function isNull(column: string, key: string): string {
  return `(${column}->'${key}' IS NULL OR jsonb_typeof(${column}->'${key}') = 'null')`;
}

function isNotNull(column: string, key: string): string {
  return `(${column}->'${key}' IS NOT NULL AND jsonb_typeof(${column}->'${key}') <> 'null')`;
}

/** LIKE wildcards and the escape character itself are matched literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

function text(value: FilterValue | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

function scalar(value: FilterValue | undefined): string | number | boolean {
  if (value === null || value === undefined) throw new AppError("INVALID_FILTER", "a range filter needs a value");
  return value;
}
