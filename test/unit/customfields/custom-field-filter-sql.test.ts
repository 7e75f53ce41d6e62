import { describe, expect, it } from "vitest";
import { numericExpression, textExpression } from "../../../src/adapters/postgres/custom-field-expressions.js";
import { compileFilterSql, escapeLike } from "../../../src/adapters/postgres/custom-field-filter-sql.js";
import { expressionIndexDdl } from "../../../src/adapters/postgres/custom-field-index-ddl.js";
import type { FilterClause } from "../../../src/domain/customfields/filters.js";
import { AppError } from "../../../src/domain/errors.js";

const num = "(CASE WHEN jsonb_typeof(custom_fields->'amount') = 'number' THEN (custom_fields->>'amount')::numeric END)";
const txt = "(CASE WHEN jsonb_typeof(custom_fields->'name') = 'string' THEN custom_fields->>'name' END)";
const day = "(CASE WHEN jsonb_typeof(custom_fields->'since') = 'string' THEN custom_fields->>'since' END)";

function sql(clause: FilterClause) {
  return compileFilterSql({ clauses: [clause] });
}

describe("compileFilterSql", () => {
  it.each<[string, FilterClause, string, unknown[]]>([
    ["eq", { fieldKey: "name", fieldType: "STRING", operator: "eq", values: ["Ada"] }, "(custom_fields @> ?::jsonb)", ['{"name":"Ada"}']],
    ["eq number", { fieldKey: "amount", fieldType: "NUMBER", operator: "eq", values: [5] }, "(custom_fields @> ?::jsonb)", ['{"amount":5}']],
    ["eq boolean", { fieldKey: "vip", fieldType: "BOOLEAN", operator: "eq", values: [true] }, "(custom_fields @> ?::jsonb)", ['{"vip":true}']],
    ["ne", { fieldKey: "name", fieldType: "STRING", operator: "ne", values: ["Ada"] }, "NOT (custom_fields @> ?::jsonb)", ['{"name":"Ada"}']],
    [
      "in",
      { fieldKey: "amount", fieldType: "NUMBER", operator: "in", values: [1, 2] },
      "((custom_fields @> ?::jsonb) OR (custom_fields @> ?::jsonb))",
      ['{"amount":1}', '{"amount":2}'],
    ],
    [
      "nin",
      { fieldKey: "name", fieldType: "STRING", operator: "nin", values: ["a", 'b"c'] },
      "NOT ((custom_fields @> ?::jsonb) OR (custom_fields @> ?::jsonb))",
      ['{"name":"a"}', '{"name":"b\\"c"}'],
    ],
    ["gt", { fieldKey: "amount", fieldType: "NUMBER", operator: "gt", values: [10] }, `${num} > ?::numeric`, [10]],
    ["gte", { fieldKey: "amount", fieldType: "NUMBER", operator: "gte", values: [10] }, `${num} >= ?::numeric`, [10]],
    ["lt", { fieldKey: "amount", fieldType: "NUMBER", operator: "lt", values: [10] }, `${num} < ?::numeric`, [10]],
    ["lte", { fieldKey: "amount", fieldType: "NUMBER", operator: "lte", values: [10] }, `${num} <= ?::numeric`, [10]],
    ["between", { fieldKey: "amount", fieldType: "NUMBER", operator: "between", values: [1, 9] }, `${num} BETWEEN ?::numeric AND ?::numeric`, [1, 9]],
    ["date gt", { fieldKey: "since", fieldType: "DATE", operator: "gt", values: ["2024-01-01"] }, `${day} > ?::text`, ["2024-01-01"]],
    [
      "date between",
      { fieldKey: "since", fieldType: "DATE", operator: "between", values: ["2024-01-01", "2024-12-31"] },
      `${day} BETWEEN ?::text AND ?::text`,
      ["2024-01-01", "2024-12-31"],
    ],
    ["contains", { fieldKey: "name", fieldType: "STRING", operator: "contains", values: ["50%_a\\b"] }, `${txt} LIKE ? ESCAPE '\\'`, ["%50\\%\\_a\\\\b%"]],
    [
      "icontains: both sides folded by casefold under pg_unicode_fast, not ILIKE (ASCII-only under the C locale)",
      { fieldKey: "name", fieldType: "STRING", operator: "icontains", values: ["Ärger_%"] },
      `casefold(${txt} COLLATE pg_unicode_fast) LIKE casefold(?::text COLLATE pg_unicode_fast) ESCAPE '\\'`,
      ["%Ärger\\_\\%%"],
    ],
    ["startswith", { fieldKey: "name", fieldType: "STRING", operator: "startswith", values: ["A_"] }, `${txt} LIKE ? ESCAPE '\\'`, ["A\\_%"]],
    ["endswith", { fieldKey: "name", fieldType: "STRING", operator: "endswith", values: ["a%"] }, `${txt} LIKE ? ESCAPE '\\'`, ["%a\\%"]],
    [
      "isnull true",
      { fieldKey: "name", fieldType: "STRING", operator: "isnull", values: [true] },
      "(custom_fields->'name' IS NULL OR jsonb_typeof(custom_fields->'name') = 'null')",
      [],
    ],
    [
      "isnull false",
      { fieldKey: "name", fieldType: "STRING", operator: "isnull", values: [false] },
      "(custom_fields->'name' IS NOT NULL AND jsonb_typeof(custom_fields->'name') <> 'null')",
      [],
    ],
  ])("%s", (_label, clause, expectedSql, params) => {
    expect(sql(clause)).toEqual({ sql: expectedSql, params });
  });

  it("ANDs clauses, numbering placeholders in order, on a chosen column", () => {
    const result = compileFilterSql(
      {
        clauses: [
          { fieldKey: "name", fieldType: "STRING", operator: "eq", values: ["Ada"] },
          { fieldKey: "amount", fieldType: "NUMBER", operator: "between", values: [1, 2] },
        ],
      },
      "c.custom_fields",
    );
    expect(result.sql).toBe(
      "(c.custom_fields @> ?::jsonb) AND (CASE WHEN jsonb_typeof(c.custom_fields->'amount') = 'number' THEN (c.custom_fields->>'amount')::numeric END) BETWEEN ?::numeric AND ?::numeric",
    );
    expect(result.params).toEqual(['{"name":"Ada"}', 1, 2]);
    expect(compileFilterSql({ clauses: [] })).toEqual({ sql: "TRUE", params: [] });
  });

  it("never puts a value into the SQL text", () => {
    const hostile = "'); DROP TABLE customers; --";
    const result = sql({ fieldKey: "name", fieldType: "STRING", operator: "contains", values: [hostile] });
    expect(result.sql).not.toContain("DROP");
    expect(result.params).toEqual([`%${hostile}%`]);
  });

  it("refuses field keys and columns that are not plain names", () => {
    for (const fieldKey of ["na'me", "Name", "a1", "", "a".repeat(65)]) {
      expect(() => sql({ fieldKey, fieldType: "STRING", operator: "eq", values: ["x"] })).toThrow(AppError);
    }
    expect(() => compileFilterSql({ clauses: [] }, "custom_fields; DROP")).toThrow(AppError);
    expect(() => numericExpression("custom_fields", "x'y")).toThrow(AppError);
  });

  it("refuses a range over a type without a typed expression", () => {
    expect(() => sql({ fieldKey: "vip", fieldType: "BOOLEAN", operator: "gt", values: [true] })).toThrow(AppError);
  });

  it("escapes LIKE wildcards and the escape character", () => {
    expect(escapeLike("a%b_c\\d")).toBe("a\\%b\\_c\\\\d");
  });
});

describe("expression indexes", () => {
  it("builds the same expression the queries use", () => {
    expect(numericExpression("custom_fields", "amount")).toBe(num);
    expect(textExpression("custom_fields", "name")).toBe(txt);
    expect(expressionIndexDdl("customers", "custom_fields", "amount", "NUMBER", "customers_cf_amount_idx")).toBe(
      `CREATE INDEX IF NOT EXISTS customers_cf_amount_idx ON customers (tenant_id, ${num})`,
    );
    expect(expressionIndexDdl("customers", "custom_fields", "since", "DATE", "customers_cf_since_idx")).toBe(
      `CREATE INDEX IF NOT EXISTS customers_cf_since_idx ON customers (tenant_id, ${day})`,
    );
  });

  it("refuses bad identifiers and types without an expression", () => {
    expect(() => expressionIndexDdl("customers;", "custom_fields", "a", "NUMBER", "i")).toThrow(AppError);
    expect(() => expressionIndexDdl("customers", "custom_fields", "a", "NUMBER", "i-x")).toThrow(AppError);
    expect(() => expressionIndexDdl("customers", "custom_fields", "a", "BOOLEAN", "i")).toThrow(AppError);
    expect(() => expressionIndexDdl("customers", "custom_fields", "a", "JSON", "i")).toThrow(AppError);
  });
});
