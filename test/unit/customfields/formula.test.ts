import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/domain/errors.js";
import {
  checkFormula,
  compileFormula,
  FormulaCache,
  formulaCache,
  formulaOf,
  MAX_FORMULA_LENGTH,
} from "../../../src/domain/customfields/formula.js";
import { NOW } from "./fixtures.js";

const scope = {
  fields: { qty: 3, price: 2.5, name: "Ada", born: "1990-07-04", flag: true, nothing: null, text_num: "4" },
  context: {
    entity: { amount: 200, label: "hello", when: "2023-12-31T23:30:00-02:00", obj: { deep: { v: 7 } } },
    customer: { tier: "gold" },
    user: { role: "admin" },
    organization: { id: "org1" },
    timestamp: "2024-03-15T10:20:30.000Z",
  },
  now: NOW,
};

function run(source: string): unknown {
  return compileFormula(source).evaluate(scope);
}

function refusal(source: string): AppError {
  try {
    checkFormula(source);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`formula was accepted: ${source}`);
}

describe("formula evaluation", () => {
  it.each([
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["10 - 4 - 3", 3],
    ["7 / 2", 3.5],
    ["7 % 3", 1],
    ["-7 % 3", 2],
    ["7 mod 3", 1],
    ["2 ^ 10", 1024],
    ["-qty", -3],
    ["+text_num", 4],
    ["qty * price", 7.5],
    ["entity.amount / 4", 50],
    ["entity.obj.deep.v + 1", 8],
    ["customer.tier == 'gold'", true],
    ["user.role != 'admin'", false],
    ["qty < 4", true],
    ["qty <= 3", true],
    ["qty > 3", false],
    ["qty >= 3", true],
    ["born < '2000-01-01'", true],
    ["qty > 1 and flag", true],
    ["qty > 5 or flag", true],
    ["not flag", false],
    ["true xor false", true],
    ["qty > 2 ? 'many' : 'few'", "many"],
    ["nothing ? 1 : 2", 2],
    ["name + ' ' + customer.tier", "Ada gold"],
    ["text_num + 1", 5],
    ["'a' + 1", "a1"],
    ["50%", 0.5],
  ])("%s = %j", (source, expected) => {
    expect(run(source)).toEqual(expected);
  });

  it.each([
    ["abs(-4.5)", 4.5],
    ["round(2.345, 2)", 2.35],
    ["round(1.005, 2)", 1.01],
    ["round(2.5)", 3],
    ["round(-2.5)", -3],
    ["round(-0.4)", 0],
    ["floor(2.7)", 2],
    ["floor(-2.1)", -3],
    ["ceil(2.1)", 3],
    ["min(3, 1, 2)", 1],
    ["max(3, 1, 2)", 3],
    ["min(qty)", 3],
    ["year(born)", 1990],
    ["month(born)", 7],
    ["day(born)", 4],
    ["year(entity.when)", 2024],
    ["month(entity.when)", 1],
    ["day(entity.when)", 1],
    ["year(timestamp)", 2024],
    ["today()", "2024-03-15"],
    ["now()", "2024-03-15T10:20:30.000Z"],
    ["uppercase(name)", "ADA"],
    ["lowercase(name)", "ada"],
    ["number('12.5')", 12.5],
    ["number(true)", 1],
    ["number('x')", null],
    ["string(12)", "12"],
    ["string(false)", "false"],
    ["boolean('true')", true],
    ["boolean(0)", false],
    ["boolean('maybe')", null],
  ])("function %s = %j", (source, expected) => {
    expect(run(source)).toEqual(expected);
  });

  it.each([
    ["1 / 0", "division by zero"],
    ["5 % 0", "modulo by zero"],
    ["10 ^ 400", "overflow to infinity"],
    ["missing_field + 1", "a missing field"],
    ["name * 2", "text in arithmetic"],
    ["uppercase(qty)", "a number where text is needed"],
    ["year('not a date')", "a bad date"],
    ["year('2023-02-30')", "an impossible date"],
    ["round(1.5, 0.5)", "non-integer decimals"],
    ["entity.obj", "an object"],
    ["entity.amount.x", "a path through a number"],
    ["qty < 'abc'", "incomparable values"],
    ["-name", "negating text"],
  ])("%s is null (%s)", (source) => {
    expect(run(source)).toBeNull();
  });

  it("takes today() and now() from the injected time", () => {
    const f = compileFormula("today()");
    expect(f.evaluate({ now: new Date("1999-12-31T23:59:59Z") })).toBe("1999-12-31");
    expect(compileFormula("now()").evaluate({ now: new Date("2030-01-02T03:04:05.678Z") })).toBe("2030-01-02T03:04:05.678Z");
  });

  it("reports bare names as dependencies, not paths or functions", () => {
    expect(compileFormula("price * qty + entity.amount + round(tax, 2) + price").dependencies).toEqual([
      "price",
      "qty",
      "tax",
    ]);
    expect(compileFormula("today()").dependencies).toEqual([]);
  });

  it("reads a bare name from the fields first, a path root from the context first", () => {
    const f = compileFormula("entity + entity.x");
    expect(f.evaluate({ fields: { entity: "F" }, context: { entity: { x: "C" } }, now: NOW })).toBe("FC");
  });

  it("cannot reach prototypes through the scope", () => {
    const fields = JSON.parse('{"__proto__": {"polluted": 1}}');
    expect(compileFormula("toString").evaluate({ fields: {}, now: NOW })).toBeNull();
    expect(compileFormula("entity.hasOwnProperty").evaluate({ context: { entity: {} }, now: NOW })).toBeNull();
    expect(compileFormula("polluted").evaluate({ fields, now: NOW })).toBeNull();
  });
});

describe("formula check", () => {
  it.each([
    ["a = 1", "assignment"],
    ["f(x) = x + 1", "function definition"],
    ["import('fs')", '"import" is not an allowed function'],
    ['evaluate("1")', '"evaluate" is not an allowed function'],
    ["createUnit('foo')", '"createUnit" is not an allowed function'],
    ["parse('1')", '"parse" is not an allowed function'],
    ["[1, 2]", "matrix"],
    ["{a: 1}", "object literal"],
    ['entity["constructor"]', "not brackets"],
    ["entity[1]", "not brackets"],
    ["entity[qty]", "not brackets"],
    ["a.__proto__", '"__proto__" may not be referenced'],
    ["constructor", '"constructor" may not be referenced'],
    ["entity.constructor.prototype", "may not be referenced"],
    ["1:3", "range"],
    ["a; b", "more than one statement"],
    ["a < b < c", "chained comparison"],
    ["2 x", "implicit multiplication"],
    ["5 cm", "implicit multiplication"],
    ["x!", 'operator "!"'],
    ["a & b", 'operator "&"'],
    ["a to b", 'operator "to"'],
    ["a ?? b", 'operator "??"'],
    ["a .* b", 'operator ".*"'],
    ["entity.f(1)", '"entity.f" is not an allowed function'],
    ["round(1, 2, 3)", "round() takes 1 to 2 argument(s), got 3"],
    ["today(1)", "today() takes 0 argument(s), got 1"],
    ["abs()", "abs() takes 1 argument(s), got 0"],
    ["null", "only finite numbers, strings and booleans"],
    ["NaN", "only finite numbers, strings and booleans"],
    ["1e400", "only finite numbers, strings and booleans"],
    ["1 +", "does not parse"],
    ["", "empty"],
    ["   ", "empty"],
  ])("refuses %s (%s)", (source, fragment) => {
    const error = refusal(source);
    expect(error.reason).toBe("INVALID_FORMULA");
    expect(error.message).toContain(fragment);
    expect(error.message.startsWith("formula: ")).toBe(true);
  });

  it("names the offending part", () => {
    expect(refusal("1 + evaluate('1+1')").message).toBe(
      'formula: "evaluate" is not an allowed function (at "evaluate("1+1")")',
    );
  });

  it("refuses a formula longer than the limit", () => {
    const tooLong = "1" + "+1".repeat(MAX_FORMULA_LENGTH / 2);
    expect(refusal(tooLong).message).toContain("at most 1000");
  });

  it("refuses a formula nested too deep, with or without brackets", () => {
    expect(refusal("(".repeat(33) + "1" + ")".repeat(33)).message).toContain("nested more than 32");
    expect(refusal("(".repeat(400) + "1" + ")".repeat(400)).message).toContain("nested more than 32");
    expect(refusal("-".repeat(40) + "1").message).toContain("nested more than 32");
    expect(refusal("a" + ".b".repeat(40)).message).toContain("nested more than 32");
    expect(() => checkFormula("(".repeat(20) + "1" + ")".repeat(20))).not.toThrow();
  });

  it("ignores brackets inside string literals when measuring depth", () => {
    expect(() => checkFormula(`"${"(".repeat(50)}" + 'x'`)).not.toThrow();
  });
});

describe("formula cache", () => {
  it("parses once per definition version", () => {
    const cache = new FormulaCache(10);
    const first = cache.get("d1", 1, "qty * 2");
    expect(cache.get("d1", 1, "qty * 2")).toBe(first);
    expect(cache.hits).toBe(1);
    expect(cache.misses).toBe(1);
    const next = cache.get("d1", 2, "qty * 3");
    expect(next).not.toBe(first);
    expect(next.evaluate({ fields: { qty: 2 }, now: NOW })).toBe(6);
  });

  it("recompiles when a source differs under the same key", () => {
    const cache = new FormulaCache(10);
    cache.get("d1", 1, "1");
    expect(cache.get("d1", 1, "2").evaluate({ now: NOW })).toBe(2);
  });

  it("is bounded, evicting the least recently used", () => {
    const cache = new FormulaCache(2);
    const a = cache.get("a", 1, "1");
    cache.get("b", 1, "2");
    cache.get("a", 1, "1");
    cache.get("c", 1, "3");
    expect(cache.size).toBe(2);
    expect(cache.get("a", 1, "1")).toBe(a);
    cache.get("b", 1, "2");
    expect(cache.misses).toBe(4);
  });

  it("formulaOf goes through the shared cache", () => {
    const d = { id: "shared_test", version: 3, computedFormula: "1 + 1" };
    expect(formulaOf(d)).toBe(formulaOf(d));
    expect(formulaCache.size).toBeGreaterThan(0);
  });
});
