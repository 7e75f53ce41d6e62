import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileFilterSql } from "../../../src/adapters/postgres/custom-field-filter-sql.js";
import { AppError } from "../../../src/domain/errors.js";
import { FILTER_OPERATORS, parseFilters, splitList, type FilterOperator } from "../../../src/domain/customfields/filters.js";
import { BINARY_OPERATORS, FUNCTION_ARITY, UNARY_OPERATORS, type Expr } from "../../../src/domain/customfields/formula-ast.js";
import { checkFormula, compileFormula, MAX_FORMULA_LENGTH } from "../../../src/domain/customfields/formula.js";
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

/**
 * Filter queries shaped by the contract: mostly `key__op=value` with a known key, an operator
 * that applies to its type and a value of that type (lists for in/nin/between), so most queries
 * reach compileFilterSql; one part in five is junk (unknown names and operators, wrong types).
 */
const OPERATORS_FOR: Record<string, readonly FilterOperator[]> = {
  STRING: ["eq", "ne", "in", "nin", "isnull", "contains", "icontains", "startswith", "endswith"],
  SELECT: ["eq", "ne", "in", "nin", "isnull", "contains", "icontains", "startswith", "endswith"],
  NUMBER: ["eq", "ne", "in", "nin", "isnull", "gt", "gte", "lt", "lte", "between"],
  DATE: ["eq", "ne", "in", "nin", "isnull", "gt", "gte", "lt", "lte", "between"],
  BOOLEAN: ["eq", "ne", "in", "nin", "isnull"],
  JSON: ["isnull"],
  COMPUTED: ["eq", "ne", "in", "nin", "isnull", "gt", "gte", "lt", "lte", "between", "contains", "icontains", "startswith", "endswith"],
};
const scalarText: Record<string, fc.Arbitrary<string>> = {
  STRING: fc.string({ minLength: 1, maxLength: 12 }).map((t) => t.replaceAll("\\", "").replaceAll(",", "") || "a"),
  SELECT: fc.constantFrom("s", "m", "l"),
  NUMBER: fc.oneof(fc.integer({ min: -1000, max: 1000 }).map(String), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map(String)),
  DATE: fc.oneof(fc.date({ min: new Date("1900-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)), fc.date({ min: new Date("1900-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString())),
  BOOLEAN: fc.constantFrom("true", "false"),
  JSON: fc.constantFrom("true", "false"),
  COMPUTED: fc.oneof(fc.integer({ min: -1000, max: 1000 }).map(String), fc.constantFrom("true", "false", "gold")),
};
function typedFilterValue(type: string, op: FilterOperator): fc.Arbitrary<string> {
  const one = type === "COMPUTED" && ["gt", "gte", "lt", "lte", "between"].includes(op) ? scalarText.NUMBER : scalarText[type];
  if (op === "isnull") return fc.constantFrom("true", "false");
  if (op === "in" || op === "nin") return fc.array(one, { minLength: 1, maxLength: 4 }).map((items) => items.join(","));
  if (op === "between") {
    return fc.tuple(one, one).map(([a, b]) => {
      const [x, y] = [a, b].map((v) => (type === "DATE" ? Date.parse(v) : Number(v)));
      return (x <= y ? [a, b] : [b, a]).join(",");
    });
  }
  return one;
}
const wellFormedClause = fc.constantFrom(...defs).chain((d) =>
  fc.constantFrom(...OPERATORS_FOR[d.fieldType]).chain((op) =>
    fc.tuple(op === "eq" ? fc.constantFrom(d.fieldKey, `${d.fieldKey}__eq`) : fc.constant(`${d.fieldKey}__${op}`), typedFilterValue(d.fieldType, op)),
  ),
);
const fieldPart = fc.oneof(fc.constantFrom(...defs.map((d) => d.fieldKey), "__proto__", "constructor", "x"), fc.string({ maxLength: 8 }));
const opPart = fc.oneof(fc.constantFrom(...FILTER_OPERATORS, "", "EQ", "like"), fc.string({ maxLength: 6 }));
const paramName = fc.oneof(fieldPart, fc.tuple(fieldPart, opPart).map(([f, o]) => `${f}__${o}`));
const valueChars = fc.constantFrom("a", "1", "0", ".", "-", ",", "\\", "e", "true", "false", "2024-01-05", "T", ":", "Z", " ", "%", "_");
const paramValue = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: valueChars, maxLength: 12 }));
const junkClause = fc.tuple(paramName, paramValue);
const filterQuery = fc
  .array(fc.oneof({ weight: 19, arbitrary: wellFormedClause }, { weight: 1, arbitrary: junkClause }), { maxLength: 4 })
  .map((pairs) => Object.fromEntries(pairs) as Record<string, string>);

describe("property: filters", () => {
  it("parseFilters only ever throws invalid-argument AppErrors, and compiled SQL has one parameter per placeholder; most queries reach SQL, every operator is compiled", () => {
    const runs = 2000;
    let compiledQueries = 0;
    const clausesByOperator = new Map<string, number>(FILTER_OPERATORS.map((op) => [op, 0]));
    fc.assert(
      fc.property(filterQuery, (query) => {
        const parsed = onlyAppErrors(() => parseFilters(query, defs), FILTER_REASONS);
        if (!parsed) return;
        for (const clause of parsed.clauses) {
          expect(defs.some((d) => d.fieldKey === clause.fieldKey)).toBe(true);
          expect(FILTER_OPERATORS).toContain(clause.operator);
        }
        const compiled = compileFilterSql(parsed);
        expect(compiled.sql.split("?").length - 1).toBe(compiled.params.length);
        if (parsed.clauses.length === 0) return;
        compiledQueries++;
        for (const clause of parsed.clauses) clausesByOperator.set(clause.operator, clausesByOperator.get(clause.operator)! + 1);
      }),
      { numRuns: runs },
    );
    console.log(`filters: ${compiledQueries}/${runs} queries compiled with at least one clause; clauses per operator ${JSON.stringify(Object.fromEntries(clausesByOperator))}`);
    expect(compiledQueries, "queries that reach SQL").toBeGreaterThanOrEqual(runs / 2);
    for (const [op, n] of clausesByOperator) expect(n, `clauses compiled with operator ${op}`).toBeGreaterThanOrEqual(20);
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

/**
 * Formulas from the language's own grammar (every operator, function with its arity, paths,
 * conditionals, constants of each type), so most compile and many are compound; one in five is a
 * random token soup or string that exercises the refusals.
 */
const FUNCTIONS = Object.entries(FUNCTION_ARITY) as [string, readonly [number, number]][];
const BINARY = Object.values(BINARY_OPERATORS);
const formulaGrammar: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("1", "2.5", "0", "'s'", "'2024-01-05'", "true", "false", "a", "b", "entity.amount", "customer.tier"),
    fc.tuple(tie("expr"), fc.constantFrom(...BINARY), tie("expr")).map(([l, op, r]) => `(${l}) ${op} (${r})`),
    fc.tuple(fc.constantFrom("-", "+", "not "), tie("expr")).map(([op, e]) => `${op}(${e})`),
    fc.tuple(tie("expr"), tie("expr"), tie("expr")).map(([c, t, f]) => `(${c}) ? (${t}) : (${f})`),
    fc.constantFrom(...FUNCTIONS).chain(([name, [min, max]]) => fc.array(tie("expr"), { minLength: min, maxLength: Math.min(max, 3) }).map((args) => `${name}(${args.join(", ")})`)),
  ),
})).expr;
const tokens = fc.constantFrom(
  "1", "2.5", "'s'", "true", "a", "b", "entity.amount", "customer.tier", "+", "-", "*", "/", "%", "^", "==", "<", ">=",
  "and", "or", "not", "xor", "?", ":", "(", ")", ",", "abs(", "round(", "min(", "max(", "year(", "today()", "now()",
  "uppercase(", "number(", "string(", "boolean(", "[", "]", "{", "}", "=", ";", "evaluate(", "import(", "__proto__", ".",
  "constructor", "'2024-01-05'", "null", "1e400", "x!", "&", "to", "\"",
);
const formulaSource = fc.oneof(
  { weight: 4, arbitrary: formulaGrammar.filter((f) => f.length <= MAX_FORMULA_LENGTH) },
  { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 60 }), fc.array(tokens, { maxLength: 25 }).map((t) => t.join(" "))) },
);

/** The constructs of a checked formula, counted: `binary:+`, `call:round`, `unary:not`, `conditional`, `path`... */
function constructsOf(expr: Expr, into: Map<string, number>): number {
  const count = (name: string) => into.set(name, (into.get(name) ?? 0) + 1);
  switch (expr.kind) {
    case "constant":
      count(`constant:${typeof expr.value}`);
      return 1;
    case "field":
    case "path":
      count(expr.kind);
      return 1;
    case "unary":
      count(`unary:${expr.op}`);
      return 1 + constructsOf(expr.arg, into);
    case "binary":
      count(`binary:${expr.op}`);
      return 1 + Math.max(constructsOf(expr.left, into), constructsOf(expr.right, into));
    case "conditional":
      count("conditional");
      return 1 + Math.max(constructsOf(expr.test, into), constructsOf(expr.then, into), constructsOf(expr.otherwise, into));
    case "call":
      count(`call:${expr.name}`);
      return 1 + Math.max(0, ...expr.args.map((arg) => constructsOf(arg, into)));
  }
}

const EVERY_CONSTRUCT = [
  ...BINARY.map((op) => `binary:${op}`),
  ...Object.values(UNARY_OPERATORS).map((op) => `unary:${op}`),
  ...FUNCTIONS.map(([name]) => `call:${name}`),
  "conditional",
  "path",
  "field",
  "constant:number",
  "constant:string",
  "constant:boolean",
];

describe("property: formulas", () => {
  it("checkFormula and compileFormula throw only INVALID_FORMULA, and evaluation never throws; most formulas compile, many are compound, every construct is reached", () => {
    const runs = 3000;
    let compiledCount = 0;
    let compound = 0;
    const constructs = new Map<string, number>();
    fc.assert(
      fc.property(formulaSource, fc.double(), fc.string({ maxLength: 5 }), (source, n, s) => {
        const checked = onlyAppErrors(() => checkFormula(source), ["INVALID_FORMULA"]);
        const compiled = onlyAppErrors(() => compileFormula(source), ["INVALID_FORMULA"]);
        expect(compiled === undefined, source).toBe(checked === undefined);
        if (!compiled || !checked) return;
        compiledCount++;
        if (constructsOf(checked, constructs) >= 3) compound++;
        const result = compiled.evaluate({
          fields: { a: n, b: s },
          context: { entity: { amount: n }, customer: { tier: s } },
          now: NOW,
        });
        expect(result === null || ["string", "boolean"].includes(typeof result) || Number.isFinite(result)).toBe(true);
      }),
      { numRuns: runs },
    );
    console.log(`formulas: ${compiledCount}/${runs} compiled, ${compound} of them nested 3 or more levels; constructs reached ${JSON.stringify(Object.fromEntries([...constructs].sort()))}`);
    expect(compiledCount, "formulas that compile").toBeGreaterThanOrEqual(runs / 2);
    expect(compound, "compiled formulas nested 3 or more levels").toBeGreaterThanOrEqual(runs / 5);
    for (const construct of EVERY_CONSTRUCT) expect(constructs.get(construct) ?? 0, `compiled formulas using ${construct}`).toBeGreaterThanOrEqual(10);
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
