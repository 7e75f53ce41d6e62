import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileFilterSql } from "../../../src/adapters/postgres/custom-field-filter-sql.js";
import { AppError } from "../../../src/domain/errors.js";
import { FILTER_OPERATORS, parseFilters, splitList } from "../../../src/domain/customfields/filters.js";
import { checkFormula, compileFormula } from "../../../src/domain/customfields/formula.js";
import { resolveForCreate } from "../../../src/domain/customfields/values.js";
import { def, NOW } from "./fixtures.js";

const defs = [
  def("name"),
  def("amount", { fieldType: "NUMBER" }),
  def("vip", { fieldType: "BOOLEAN" }),
  def("since", { fieldType: "DATE" }),
  def("size", { fieldType: "SELECT", uiConfig: { options: [{ label: "S", value: "s" }] } }),
  def("prefs", { fieldType: "JSON" }),
  def("score", { fieldType: "COMPUTED", computedFormula: "amount * 2" }),
];

/** Runs `fn`; anything thrown must be an AppError with one of `reasons`. */
function onlyAppErrors<T>(fn: () => T, reasons: readonly string[]): T | undefined {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(reasons).toContain(error.reason);
    return undefined;
  }
}

const FILTER_REASONS = ["UNKNOWN_FILTER_FIELD", "UNKNOWN_FILTER_OPERATOR", "INVALID_FILTER"];

const fieldPart = fc.oneof(fc.constantFrom(...defs.map((d) => d.fieldKey), "__proto__", "constructor", "x"), fc.string({ maxLength: 8 }));
const opPart = fc.oneof(fc.constantFrom(...FILTER_OPERATORS, "", "EQ", "like"), fc.string({ maxLength: 6 }));
const paramName = fc.oneof(fieldPart, fc.tuple(fieldPart, opPart).map(([f, o]) => `${f}__${o}`));
const valueChars = fc.constantFrom("a", "1", "0", ".", "-", ",", "\\", "e", "true", "false", "2024-01-05", "T", ":", "Z", " ", "%", "_");
const paramValue = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: valueChars, maxLength: 12 }));

describe("property: filters", () => {
  it("parseFilters only ever throws invalid-argument AppErrors, and compiled SQL has one parameter per placeholder", () => {
    fc.assert(
      fc.property(fc.dictionary(paramName, paramValue, { maxKeys: 6 }), (query) => {
        const parsed = onlyAppErrors(() => parseFilters(query, defs), FILTER_REASONS);
        if (!parsed) return;
        for (const clause of parsed.clauses) {
          expect(defs.some((d) => d.fieldKey === clause.fieldKey)).toBe(true);
          expect(FILTER_OPERATORS).toContain(clause.operator);
        }
        const compiled = compileFilterSql(parsed);
        expect(compiled.sql.split("?").length - 1).toBe(compiled.params.length);
      }),
      { numRuns: 2000 },
    );
  });

  it("splitList inverts escaping", () => {
    const escape = (s: string) => s.replaceAll("\\", "\\\\").replaceAll(",", "\\,");
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom("a", ",", "\\", "b") }), { minLength: 1, maxLength: 6 }), (items) => {
        expect(splitList(items.map(escape).join(","))).toEqual(items);
      }),
    );
  });
});

const tokens = fc.constantFrom(
  "1", "2.5", "'s'", "true", "a", "b", "entity.amount", "customer.tier", "+", "-", "*", "/", "%", "^", "==", "<", ">=",
  "and", "or", "not", "xor", "?", ":", "(", ")", ",", "abs(", "round(", "min(", "max(", "year(", "today()", "now()",
  "uppercase(", "number(", "string(", "boolean(", "[", "]", "{", "}", "=", ";", "evaluate(", "import(", "__proto__", ".",
  "constructor", "'2024-01-05'", "null", "1e400", "x!", "&", "to", "\"",
);
const formulaSource = fc.oneof(fc.string({ maxLength: 60 }), fc.array(tokens, { maxLength: 25 }).map((t) => t.join(" ")));

describe("property: formulas", () => {
  it("checkFormula and compileFormula throw only INVALID_FORMULA, and evaluation never throws", () => {
    fc.assert(
      fc.property(formulaSource, fc.double(), fc.string({ maxLength: 5 }), (source, n, s) => {
        onlyAppErrors(() => checkFormula(source), ["INVALID_FORMULA"]);
        const compiled = onlyAppErrors(() => compileFormula(source), ["INVALID_FORMULA"]);
        if (!compiled) return;
        const result = compiled.evaluate({
          fields: { a: n, b: s },
          context: { entity: { amount: n }, customer: { tier: s } },
          now: NOW,
        });
        expect(result === null || ["string", "boolean"].includes(typeof result) || Number.isFinite(result)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("property: values", () => {
  it("resolveForCreate throws only CUSTOM_FIELD_VALIDATION_FAILED and never pollutes prototypes", () => {
    const key = fc.oneof(fc.constantFrom(...defs.map((d) => d.fieldKey), "__proto__", "constructor", "prototype"), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }), (values) => {
        const result = onlyAppErrors(() => resolveForCreate(defs, values, { entity: values }, NOW), [
          "CUSTOM_FIELD_VALIDATION_FAILED",
        ]);
        if (result) expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
        expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("polluted");
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });
});
