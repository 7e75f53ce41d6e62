import { describe, expect, it } from "vitest";
import {
  applyOperator,
  CONDITION_OPERATORS,
  evaluateCondition,
  evaluateGroup,
} from "../../../src/domain/customfields/conditions.js";
import { compareValues } from "../../../src/domain/customfields/compare.js";
import { getPath } from "../../../src/domain/customfields/paths.js";

const context = {
  entity: { country: "DE", amount: 150, amountText: "150", tags: ["vip", "b2b"], nested: { deep: { x: 1 } }, empty: null },
  user: { role: "admin", id: "u1" },
  organization: { id: "org1" },
  timestamp: "2024-03-15T10:20:30.000Z",
  customer: { since: "2020-01-01" },
};

describe("condition operators", () => {
  const cases: [string, unknown, unknown, boolean][] = [
    ["equals", "DE", "DE", true],
    ["equals", "DE", "FR", false],
    ["equals", 150, "150", true],
    ["equals", "2024-01-01", "2024-01-01T00:00:00Z", true],
    ["equals", null, undefined, true],
    ["equals", ["a"], ["a"], true],
    ["equals", { a: 1 }, { a: 1 }, true],
    ["equals", { a: 1 }, { a: 2 }, false],
    ["notEquals", "DE", "FR", true],
    ["notEquals", "DE", "DE", false],
    ["greaterThan", 10, 9, true],
    ["greaterThan", 9, 10, false],
    ["greaterThan", "10", 9, true],
    ["greaterThan", "10", "9", false], // two strings compare as strings
    ["greaterThan", "2024-02-01", "2024-01-31", true],
    ["greaterThan", "abc", 1, false],
    ["greaterThan", null, 1, false],
    ["greaterThanOrEqual", 10, 10, true],
    ["greaterThanOrEqual", 9, 10, false],
    ["lessThan", 9, 10, true],
    ["lessThan", 10, 10, false],
    ["lessThan", "2024-01-01T23:59:59Z", "2024-01-02", true],
    ["lessThanOrEqual", 10, 10, true],
    ["lessThanOrEqual", 11, 10, false],
    ["in", "DE", ["FR", "DE"], true],
    ["in", 5, ["5", 6], true],
    ["in", "IT", ["FR", "DE"], false],
    ["in", "DE", "DE", false],
    ["notIn", "IT", ["FR", "DE"], true],
    ["notIn", "DE", ["FR", "DE"], false],
    ["notIn", "DE", "not a list", false],
    ["contains", "hello world", "lo w", true],
    ["contains", "hello", "xyz", false],
    ["contains", ["vip", "b2b"], "vip", true],
    ["contains", ["vip"], "v", false],
    ["contains", 123, "2", false],
    ["startsWith", "hello", "he", true],
    ["startsWith", "hello", "lo", false],
    ["startsWith", 123, "1", false],
    ["endsWith", "hello", "lo", true],
    ["endsWith", "hello", "he", false],
    ["exists", 0, undefined, true],
    ["exists", "", undefined, true],
    ["exists", null, undefined, false],
    ["exists", undefined, undefined, false],
    ["notExists", undefined, undefined, true],
    ["notExists", null, undefined, true],
    ["notExists", false, undefined, false],
    ["noSuchOperator", 1, 1, false],
  ];

  it.each(cases)("%s(%j, %j) is %s", (operator, actual, expected, result) => {
    expect(applyOperator(operator, actual, expected)).toBe(result);
  });

  it("covers every documented operator", () => {
    const tested = new Set(cases.map(([op]) => op));
    for (const op of CONDITION_OPERATORS) expect(tested.has(op)).toBe(true);
  });
});

describe("paths", () => {
  it("follows dotted paths into the context", () => {
    expect(getPath(context, "entity.nested.deep.x")).toBe(1);
    expect(getPath(context, "user.role")).toBe("admin");
    expect(getPath(context, "organization.id")).toBe("org1");
    expect(getPath(context, "timestamp")).toBe("2024-03-15T10:20:30.000Z");
    expect(getPath(context, "customer.since")).toBe("2020-01-01");
    expect(getPath(context, "entity.tags.0")).toBe("vip");
    expect(getPath(context, "entity.missing.x")).toBeUndefined();
    expect(getPath(context, "entity..country")).toBeUndefined();
  });

  it.each([
    "entity.__proto__",
    "entity.constructor",
    "entity.constructor.prototype",
    "__proto__",
    "entity.toString",
    "entity.hasOwnProperty",
    "entity.country.length.constructor",
  ])("never walks into prototypes: %s", (path) => {
    expect(getPath(context, path)).toBeUndefined();
  });

  it("reads own properties even on prototype-less objects", () => {
    const bare = Object.assign(Object.create(null), { a: { b: 2 } });
    expect(getPath(bare, "a.b")).toBe(2);
  });

  it("does not treat an own __proto__ key as data either", () => {
    const hostile = JSON.parse('{"__proto__": {"isAdmin": true}}');
    expect(getPath(hostile, "__proto__.isAdmin")).toBeUndefined();
  });
});

describe("conditions and groups", () => {
  it("evaluates a condition at a path", () => {
    expect(evaluateCondition({ field: "entity.amount", operator: "greaterThan", value: 100 }, context)).toBe(true);
    expect(evaluateCondition({ field: "entity.amountText", operator: "lessThan", value: 100 }, context)).toBe(false);
    expect(evaluateCondition({ field: "entity.empty", operator: "notExists" }, context)).toBe(true);
    expect(evaluateCondition({ field: "timestamp", operator: "greaterThan", value: "2024-03-15" }, context)).toBe(true);
  });

  it("AND needs all, OR needs one", () => {
    const yes = { field: "user.role", operator: "equals", value: "admin" };
    const no = { field: "entity.country", operator: "equals", value: "FR" };
    expect(evaluateGroup({ operator: "AND", conditions: [yes, yes] }, context)).toBe(true);
    expect(evaluateGroup({ operator: "AND", conditions: [yes, no] }, context)).toBe(false);
    expect(evaluateGroup({ operator: "OR", conditions: [no, yes] }, context)).toBe(true);
    expect(evaluateGroup({ operator: "OR", conditions: [no, no] }, context)).toBe(false);
    expect(evaluateGroup({ operator: "AND", conditions: [] }, context)).toBe(true);
    expect(evaluateGroup({ operator: "OR", conditions: [] }, context)).toBe(false);
    expect(evaluateGroup({ operator: "XOR" as "AND", conditions: [yes] }, context)).toBe(false);
  });

  it("compares Date objects with date strings", () => {
    expect(compareValues(new Date("2024-01-02T00:00:00Z"), "2024-01-01")).toBe(1);
    expect(compareValues({}, 1)).toBeUndefined();
    expect(compareValues(true, false)).toBe(1);
  });
});
