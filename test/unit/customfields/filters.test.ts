import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/domain/errors.js";
import { isCustomFilterParam, parseFilters, splitList } from "../../../src/domain/customfields/filters.js";
import { def } from "./fixtures.js";

const defs = [
  def("name"),
  def("credit_limit", { fieldType: "NUMBER" }),
  def("vip", { fieldType: "BOOLEAN" }),
  def("since", { fieldType: "DATE" }),
  def("size", { fieldType: "SELECT", uiConfig: { options: [{ label: "S", value: "s" }] } }),
  def("prefs", { fieldType: "JSON" }),
  def("score", { fieldType: "COMPUTED", computedFormula: "1" }),
  def("a__b"),
  def("gone", { deletedAt: new Date("2024-01-01T00:00:00Z") }),
];

function only(query: Record<string, string>) {
  const { clauses } = parseFilters(query, defs);
  expect(clauses).toHaveLength(1);
  return clauses[0];
}

function failure(query: Record<string, string>): AppError {
  try {
    parseFilters(query, defs);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("filter accepted");
}

describe("parseFilters", () => {
  it.each([
    [{ name: "Ada" }, "name", "eq", ["Ada"]],
    [{ name__eq: "Ada" }, "name", "eq", ["Ada"]],
    [{ name__ne: "Ada" }, "name", "ne", ["Ada"]],
    [{ credit_limit__gt: "10" }, "credit_limit", "gt", [10]],
    [{ credit_limit__gte: "-1.5" }, "credit_limit", "gte", [-1.5]],
    [{ credit_limit__lt: "1e3" }, "credit_limit", "lt", [1000]],
    [{ credit_limit__lte: "0" }, "credit_limit", "lte", [0]],
    [{ credit_limit__in: "1,2,3" }, "credit_limit", "in", [1, 2, 3]],
    [{ name__nin: "a,b" }, "name", "nin", ["a", "b"]],
    [{ name__contains: "d,a" }, "name", "contains", ["d,a"]],
    [{ name__icontains: "ADA" }, "name", "icontains", ["ADA"]],
    [{ name__startswith: "A" }, "name", "startswith", ["A"]],
    [{ name__endswith: "a" }, "name", "endswith", ["a"]],
    [{ name__isnull: "true" }, "name", "isnull", [true]],
    [{ prefs__isnull: "false" }, "prefs", "isnull", [false]],
    [{ credit_limit__between: "10,20" }, "credit_limit", "between", [10, 20]],
    [{ credit_limit__between: "5,5" }, "credit_limit", "between", [5, 5]],
    [{ vip: "true" }, "vip", "eq", [true]],
    [{ vip__in: "true,false" }, "vip", "in", [true, false]],
    [{ since: "2024-01-05" }, "since", "eq", ["2024-01-05"]],
    [{ since__gte: "2024-01-05T10:00:00+01:00" }, "since", "gte", ["2024-01-05T09:00:00.000Z"]],
    [{ since__between: "2024-01-01,2024-12-31" }, "since", "between", ["2024-01-01", "2024-12-31"]],
    [{ size__in: "s,m" }, "size", "in", ["s", "m"]],
    [{ score: "12" }, "score", "eq", [12]],
    [{ score: "true" }, "score", "eq", [true]],
    [{ score: "high" }, "score", "eq", ["high"]],
    [{ score__gt: "3" }, "score", "gt", [3]],
    [{ a__b: "x" }, "a__b", "eq", ["x"]],
    [{ a__b__ne: "x" }, "a__b", "ne", ["x"]],
  ])("%j -> %s %s %j", (query, fieldKey, operator, values) => {
    const clause = only(query);
    expect(clause).toEqual({ fieldKey, fieldType: defs.find((d) => d.fieldKey === fieldKey)!.fieldType, operator, values });
  });

  it("keeps every value of in/nin and unescapes commas and backslashes", () => {
    expect(only({ name__in: "a\\,b,c\\\\,d" }).values).toEqual(["a,b", "c\\", "d"]);
    expect(only({ name__nin: "x\\y,,z" }).values).toEqual(["x\\y", "", "z"]);
    expect(splitList("a\\,b\\,c")).toEqual(["a,b,c"]);
    expect(splitList("\\\\,")).toEqual(["\\", ""]);
  });

  it("combines several clauses", () => {
    const { clauses } = parseFilters({ name: "Ada", credit_limit__gt: "5" }, defs);
    expect(clauses.map((c) => `${c.fieldKey}:${c.operator}`)).toEqual(["name:eq", "credit_limit:gt"]);
    expect(parseFilters({}, defs)).toEqual({ clauses: [] });
  });

  it.each([
    [{ nope: "1" }, "UNKNOWN_FILTER_FIELD", 'filter "nope"'],
    [{ nope__gt: "1" }, "UNKNOWN_FILTER_FIELD", 'filter "nope__gt"'],
    [{ gone: "1" }, "UNKNOWN_FILTER_FIELD", 'filter "gone"'],
    [{ __proto__x: "1" }, "UNKNOWN_FILTER_FIELD", 'filter "__proto__x"'],
    [{ name__like: "1" }, "UNKNOWN_FILTER_OPERATOR", 'filter "name__like"'],
    [{ name__: "1" }, "UNKNOWN_FILTER_OPERATOR", 'filter "name__"'],
    [{ name__EQ: "1" }, "UNKNOWN_FILTER_OPERATOR", 'filter "name__EQ"'],
    [{ vip__gt: "true" }, "INVALID_FILTER", "operator gt does not apply to a boolean field"],
    [{ credit_limit__contains: "1" }, "INVALID_FILTER", "operator contains does not apply to a number field"],
    [{ name__gt: "a" }, "INVALID_FILTER", "operator gt does not apply to a string field"],
    [{ prefs: "x" }, "INVALID_FILTER", "operator eq does not apply to a json field"],
    [{ credit_limit: "abc" }, "INVALID_FILTER", '"abc" is not a number'],
    [{ credit_limit__in: "1,x" }, "INVALID_FILTER", '"x" is not a number'],
    [{ vip: "yes" }, "INVALID_FILTER", '"yes" is not true or false'],
    [{ since: "2024-02-30" }, "INVALID_FILTER", "is not a date"],
    [{ name__isnull: "1" }, "INVALID_FILTER", "isnull accepts only true or false"],
    [{ credit_limit__between: "1" }, "INVALID_FILTER", "exactly two values"],
    [{ credit_limit__between: "1,2,3" }, "INVALID_FILTER", "exactly two values"],
    [{ credit_limit__between: "5,1" }, "INVALID_FILTER", "min not greater than max"],
    [{ since__between: "2024-02-01,2024-01-01" }, "INVALID_FILTER", "min not greater than max"],
    [{ score__gt: "high" }, "INVALID_FILTER", '"high" is not a number'],
    [{ name__contains: "" }, "INVALID_FILTER", "contains needs a non-empty value"],
  ])("%j fails with %s", (query, reason, fragment) => {
    const error = failure(query as Record<string, string>);
    expect(error.reason).toBe(reason);
    expect(error.message).toContain(fragment);
  });

  it("refuses a __proto__ parameter without polluting", () => {
    const query = JSON.parse('{"__proto__": "x"}');
    const error = failure(query);
    expect(error.reason).toBe("UNKNOWN_FILTER_FIELD");
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("enforces limits on clauses, list sizes and value length", () => {
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`name__${i}`, "x"]));
    expect(failure(many).message).toContain("at most 20 custom field filters");
    const keys = Array.from({ length: 20 }, (_, i) => "f_" + "x".repeat(i + 1));
    const twenty = Object.fromEntries(keys.map((key) => [key, "v"]));
    expect(parseFilters(twenty, keys.map((key) => def(key))).clauses).toHaveLength(20);
    expect(failure({ name__in: Array.from({ length: 101 }, (_, i) => `v${i}`).join(",") }).message).toContain(
      "at most 100 values",
    );
    expect(only({ name__in: Array.from({ length: 100 }, (_, i) => `v${i}`).join(",") }).values).toHaveLength(100);
    expect(failure({ name: "x".repeat(1001) }).message).toContain("longer than 1000");
    expect(only({ name: "x".repeat(1000) }).values[0]).toHaveLength(1000);
  });

  it("refuses a value that is not text", () => {
    expect(failure({ name: ["a", "b"] } as unknown as Record<string, string>).reason).toBe("INVALID_FILTER");
  });
});

describe("isCustomFilterParam", () => {
  it("recognises the double underscore", () => {
    expect(isCustomFilterParam("credit_limit__gt")).toBe(true);
    expect(isCustomFilterParam("credit_limit")).toBe(false);
    expect(isCustomFilterParam("name")).toBe(false);
    expect(isCustomFilterParam("page_size")).toBe(false);
  });
});
