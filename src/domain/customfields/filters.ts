/**
 * Custom field filters of list endpoints: `fieldKey__operator=value` query parameters, typed by
 * the field's definition. Unlike the old service, `in`/`nin` compare every listed value,
 * `icontains` is case-insensitive, and an unknown field or operator is an error, never ignored.
 */
import { AppError, type ErrorReason } from "../errors.js";
import type { FieldDefinition, FieldType } from "./definition.js";
import { isForbiddenKey } from "./safe-keys.js";
import { parseBooleanText, parseDateText, parseNumberText } from "./scalars.js";

export const FILTER_OPERATORS = [
  "eq",
  "ne",
  "gt",
  "gte",
  "lt",
  "lte",
  "in",
  "nin",
  "contains",
  "icontains",
  "startswith",
  "endswith",
  "isnull",
  "between",
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export type FilterValue = string | number | boolean | null;

export interface FilterClause {
  fieldKey: string;
  fieldType: FieldType;
  operator: FilterOperator;
  values: FilterValue[];
}

export interface ParsedFilter {
  clauses: FilterClause[];
}

export const MAX_FILTER_CLAUSES = 20;
export const MAX_FILTER_LIST_VALUES = 100;
export const MAX_FILTER_VALUE_LENGTH = 1000;

const OPERATOR_SEPARATOR = "__";

const EQUALITY: readonly FilterOperator[] = ["eq", "ne", "in", "nin", "isnull"];
const RANGE: readonly FilterOperator[] = ["gt", "gte", "lt", "lte", "between"];
const TEXT: readonly FilterOperator[] = ["contains", "icontains", "startswith", "endswith"];

/** Which operators make sense for which stored type. */
const OPERATORS_BY_TYPE: Record<FieldType, ReadonlySet<FilterOperator>> = {
  STRING: new Set([...EQUALITY, ...TEXT]),
  SELECT: new Set([...EQUALITY, ...TEXT]),
  NUMBER: new Set([...EQUALITY, ...RANGE]),
  DATE: new Set([...EQUALITY, ...RANGE]),
  BOOLEAN: new Set(EQUALITY),
  // A JSON value has no scalar to compare; only presence can be asked.
  JSON: new Set<FilterOperator>(["isnull"]),
  // A computed value is typed only by its formula: numbers, text or booleans are recognised from
  // the filter value itself (see typeValue), and range operators need numbers.
  COMPUTED: new Set([...EQUALITY, ...RANGE, ...TEXT]),
};

/**
 * The query parameters the caller identified as custom filters: any name with a double underscore
 * (spec), plus plain field keys when the caller routes them here (operator eq).
 */
export function isCustomFilterParam(name: string): boolean {
  return name.includes(OPERATOR_SEPARATOR);
}

export function isFilterOperator(name: string): name is FilterOperator {
  return (FILTER_OPERATORS as readonly string[]).includes(name);
}

/** Parses every parameter of `query` as a custom filter; clauses are combined with AND. */
export function parseFilters(
  query: Readonly<Record<string, string>>,
  defs: readonly Pick<FieldDefinition, "fieldKey" | "fieldType" | "deletedAt">[],
): ParsedFilter {
  const byKey = new Map<string, Pick<FieldDefinition, "fieldKey" | "fieldType">>();
  for (const def of defs) {
    if (def.deletedAt === undefined && !isForbiddenKey(def.fieldKey)) byKey.set(def.fieldKey, def);
  }
  const names = Object.keys(query);
  if (names.length > MAX_FILTER_CLAUSES) {
    throw new AppError("INVALID_FILTER", `at most ${MAX_FILTER_CLAUSES} custom field filters are allowed, got ${names.length}`);
  }
  return { clauses: names.map((name) => parseClause(name, query[name], byKey)) };
}

function parseClause(
  param: string,
  raw: unknown,
  byKey: ReadonlyMap<string, Pick<FieldDefinition, "fieldKey" | "fieldType">>,
): FilterClause {
  const { fieldKey, operatorName } = splitParam(param, byKey);
  const def = byKey.get(fieldKey);
  if (!def) throw filterError("UNKNOWN_FILTER_FIELD", param, `"${fieldKey}" is not a custom field of this entity type`);
  if (!isFilterOperator(operatorName)) {
    throw filterError("UNKNOWN_FILTER_OPERATOR", param, `"${operatorName}" is not a filter operator (${FILTER_OPERATORS.join(", ")})`);
  }
  const operator = operatorName;
  if (!OPERATORS_BY_TYPE[def.fieldType].has(operator)) {
    throw filterError("INVALID_FILTER", param, `operator ${operator} does not apply to a ${def.fieldType.toLowerCase()} field`);
  }
  if (typeof raw !== "string") throw filterError("INVALID_FILTER", param, "the value must be text");
  if (raw.length > MAX_FILTER_VALUE_LENGTH) {
    throw filterError("INVALID_FILTER", param, `the value is longer than ${MAX_FILTER_VALUE_LENGTH} characters`);
  }
  const values = typedValues(param, def.fieldType, operator, raw);
  return { fieldKey, fieldType: def.fieldType, operator, values };
}

/**
 * `key__op`, split at the last double underscore, since a field key may itself contain one.
 * A name that is exactly a field key means eq.
 */
function splitParam(param: string, byKey: ReadonlyMap<string, unknown>): { fieldKey: string; operatorName: string } {
  if (byKey.has(param)) return { fieldKey: param, operatorName: "eq" };
  const at = param.lastIndexOf(OPERATOR_SEPARATOR);
  if (at <= 0) return { fieldKey: param, operatorName: "eq" };
  return { fieldKey: param.slice(0, at), operatorName: param.slice(at + OPERATOR_SEPARATOR.length) };
}

function typedValues(param: string, type: FieldType, operator: FilterOperator, raw: string): FilterValue[] {
  if (operator === "isnull") {
    const flag = parseBooleanText(raw);
    if (flag === undefined) throw filterError("INVALID_FILTER", param, "isnull accepts only true or false");
    return [flag];
  }
  if (operator === "in" || operator === "nin" || operator === "between") {
    const items = splitList(raw);
    if (items.length > MAX_FILTER_LIST_VALUES) {
      throw filterError("INVALID_FILTER", param, `at most ${MAX_FILTER_LIST_VALUES} values are allowed in a list`);
    }
    const values = items.map((item) => typeValue(param, type, operator, item));
    if (operator === "between") checkRange(param, values);
    return values;
  }
  return [typeValue(param, type, operator, raw)];
}

/** Commas separate values; `\,` is a literal comma and `\\` a literal backslash. */
export function splitList(raw: string): string[] {
  const items: string[] = [];
  let current = "";
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    const next = raw[i + 1];
    if (ch === "\\" && (next === "," || next === "\\")) {
      current += next;
      i++;
    } else if (ch === ",") {
      items.push(current);
      current = "";
    } else {
      current += ch;
    }
  }
  items.push(current);
  return items;
}

function typeValue(param: string, type: FieldType, operator: FilterOperator, text: string): FilterValue {
  if (TEXT.includes(operator)) {
    if (text === "") throw filterError("INVALID_FILTER", param, `${operator} needs a non-empty value`);
    return text;
  }
  switch (type) {
    case "NUMBER":
      return numberValue(param, text);
    case "BOOLEAN": {
      const flag = parseBooleanText(text);
      if (flag === undefined) throw filterError("INVALID_FILTER", param, `"${text}" is not true or false`);
      return flag;
    }
    case "DATE": {
      const date = parseDateText(text);
      if (!date) throw filterError("INVALID_FILTER", param, `"${text}" is not a date (YYYY-MM-DD or ISO 8601)`);
      return date.normalized;
    }
    case "COMPUTED":
      return computedValue(param, operator, text);
    default:
      return text;
  }
}

function numberValue(param: string, text: string): number {
  const n = parseNumberText(text);
  if (n === undefined) throw filterError("INVALID_FILTER", param, `"${text}" is not a number`);
  return n;
}

/** Numbers and booleans are recognised in the text; range operators demand a number. */
function computedValue(param: string, operator: FilterOperator, text: string): FilterValue {
  if (RANGE.includes(operator)) return numberValue(param, text);
  return parseNumberText(text) ?? parseBooleanText(text) ?? text;
}

function checkRange(param: string, values: FilterValue[]): void {
  if (values.length !== 2) throw filterError("INVALID_FILTER", param, "between needs exactly two values: min,max");
  const [low, high] = values;
  if (low !== null && high !== null && low > high) {
    throw filterError("INVALID_FILTER", param, "between needs min not greater than max");
  }
}

function filterError(reason: ErrorReason, param: string, why: string): AppError {
  const shown = param.length > 100 ? `${param.slice(0, 97)}...` : param;
  return new AppError(reason, `filter "${shown}": ${why}`, { metadata: { parameter: shown } });
}
