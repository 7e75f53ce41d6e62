import { describe, expect, it } from "vitest";
import { AppError, type FieldViolation } from "../../../src/domain/errors.js";
import { computeValues, MAX_PASSES } from "../../../src/domain/customfields/computed-values.js";
import type { FieldDefinition, FieldValidation } from "../../../src/domain/customfields/definition.js";
import { checkValue, coerceValue } from "../../../src/domain/customfields/value-checks.js";
import { resolveForCreate, validateForUpdate } from "../../../src/domain/customfields/values.js";
import { def, NOW } from "./fixtures.js";

const select = def("size", { fieldType: "SELECT", uiConfig: { options: [{ label: "Small", value: "s" }, { label: "Large", value: "l" }] } });

function violationsOf(fn: () => unknown): FieldViolation[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).reason).toBe("CUSTOM_FIELD_VALIDATION_FAILED");
    return (error as AppError).violations;
  }
  throw new Error("expected a validation failure");
}

describe("type checks and coercions", () => {
  const typed = (fieldType: FieldDefinition["fieldType"]) => def("f", { fieldType });
  it.each([
    ["STRING", "abc", "abc"],
    ["STRING", "", ""],
    ["NUMBER", 5, 5],
    ["NUMBER", -2.5, -2.5],
    ["NUMBER", "12.5", 12.5],
    ["NUMBER", " 7 ", 7],
    ["NUMBER", "1e3", 1000],
    ["BOOLEAN", true, true],
    ["BOOLEAN", false, false],
    ["BOOLEAN", "true", true],
    ["BOOLEAN", "false", false],
    ["DATE", "2024-02-29", "2024-02-29"],
    ["DATE", "0099-01-01", "0099-01-01"],
    ["DATE", "2024-03-15T10:00:00+02:00", "2024-03-15T08:00:00.000Z"],
    ["DATE", "2024-03-15T10:00", "2024-03-15T10:00:00.000Z"],
    ["DATE", "2024-03-15T10:00:05.123456Z", "2024-03-15T10:00:05.123Z"],
    ["DATE", "2024-03-15T23:30:00-0130", "2024-03-16T01:00:00.000Z"],
    ["JSON", { a: [1, "x", null, { b: true }] }, { a: [1, "x", null, { b: true }] }],
    ["JSON", [1, 2], [1, 2]],
    ["JSON", "text", "text"],
    ["JSON", null, null],
    ["COMPUTED", { anything: 1 }, { anything: 1 }],
  ] as const)("%s accepts %j as %j", (type, input, stored) => {
    expect(coerceValue(typed(type), input)).toEqual({ ok: true, value: stored });
  });

  it.each([
    ["STRING", 5, "must be a string"],
    ["STRING", null, "must be a string"],
    ["NUMBER", "abc", "must be a number"],
    ["NUMBER", "", "must be a number"],
    ["NUMBER", "0x10", "must be a number"],
    ["NUMBER", "Infinity", "must be a number"],
    ["NUMBER", true, "must be a number"],
    ["NUMBER", Number.NaN, "must be a finite number"],
    ["NUMBER", Number.POSITIVE_INFINITY, "must be a finite number"],
    ["BOOLEAN", "yes", "must be true or false"],
    ["BOOLEAN", "TRUE", "must be true or false"],
    ["BOOLEAN", 1, "must be true or false"],
    ["DATE", "2023-02-29", "must be a date"],
    ["DATE", "2024-13-01", "must be a date"],
    ["DATE", "2024-01-01T24:00", "must be a date"],
    ["DATE", "March 5, 2024", "must be a date"],
    ["DATE", "2024-1-5", "must be a date"],
    ["DATE", 1700000000000, "must be a date"],
    ["JSON", Number.NaN, "must be a JSON value"],
    ["JSON", new Date(0), "must be a JSON value"],
    ["JSON", () => 1, "must be a JSON value"],
    ["JSON", undefined, "must be a JSON value"],
  ] as const)("%s refuses %j", (type, input, description) => {
    const result = coerceValue(typed(type), input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.description).toContain(description);
  });

  it("limits JSON nesting", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    expect(coerceValue(typed("JSON"), deep).ok).toBe(false);
  });

  it("select accepts only an option value", () => {
    expect(coerceValue(select, "s")).toEqual({ ok: true, value: "s" });
    expect(coerceValue(select, "Small")).toEqual({ ok: false, description: "must be one of: s, l" });
    expect(coerceValue(select, 1).ok).toBe(false);
  });
});

describe("constraints", () => {
  // The tables are `as const`; their readonly lists are plain validation objects here.
  const check = (fieldType: FieldDefinition["fieldType"], value: unknown, validation: object) =>
    checkValue(def("f", { fieldType }), value, validation as FieldValidation);

  it.each([
    ["STRING", "ab", { minLength: 3 }, "must be at least 3 characters long"],
    ["STRING", "abcd", { maxLength: 3 }, "must be at most 3 characters long"],
    ["STRING", "abc", { pattern: "^\\d+$" }, "must match the pattern ^\\d+$"],
    ["STRING", "x", { enum: ["a", "b"] }, "must be one of: a, b"],
    ["NUMBER", 0, { min: 1 }, "must be at least 1"],
    ["NUMBER", "11", { max: 10 }, "must be at most 10"],
    ["DATE", "2023-12-31", { minDate: "2024-01-01" }, "must be on or after 2024-01-01"],
    ["DATE", "2025-01-01", { maxDate: "2024-12-31" }, "must be on or before 2024-12-31"],
    ["DATE", "2024-12-31T23:30:00-01:00", { maxDate: "2024-12-31" }, "must be on or before 2024-12-31"],
  ] as const)("%s %j against %j fails: %s", (type, value, validation, description) => {
    expect(check(type, value, validation)).toEqual({ ok: false, description });
  });

  it.each([
    ["STRING", "😀😀😀", { minLength: 3, maxLength: 3 }],
    ["STRING", "abc", { pattern: "b", enum: ["abc"] }],
    ["STRING", "abc", { enum: [] }],
    ["NUMBER", 10, { min: 10, max: 10 }],
    ["DATE", "2024-12-31T23:30:00Z", { minDate: "2024-12-31", maxDate: "2024-12-31" }],
    ["BOOLEAN", true, { min: 5, minLength: 9 }],
  ] as const)("%s %j passes %j", (type, value, validation) => {
    expect(check(type, value, validation).ok).toBe(true);
  });

  it("reports only the first failing check", () => {
    expect(check("STRING", "x", { minLength: 2, pattern: "^\\d$", enum: ["y"] })).toEqual({
      ok: false,
      description: "must be at least 2 characters long",
    });
  });

  it("reports an unusable stored pattern as a violation instead of failing", () => {
    expect(check("STRING", "a", { pattern: "(?=a)" })).toEqual({
      ok: false,
      description: "cannot be checked: the field's pattern is not usable",
    });
  });
});

describe("resolveForCreate", () => {
  const isDE = { operator: "AND" as const, conditions: [{ field: "entity.country", operator: "equals", value: "DE" }] };

  it("applies static defaults coerced by type, then rule defaults, then user values", () => {
    const defs = [
      def("credit_limit", { fieldType: "NUMBER", defaultValue: "1000", displayOrder: 1 }),
      def("newsletter", { fieldType: "BOOLEAN", defaultValue: "true", displayOrder: 2 }),
      def("currency", {
        defaultStrategy: "RULE_BASED",
        defaultValue: "USD",
        defaultRules: [{ name: "de", priority: 1, when: isDE, then: { defaultValue: "EUR" } }],
        displayOrder: 3,
      }),
      def("since", { fieldType: "DATE", defaultValue: "2024-01-01", displayOrder: 4 }),
      def("prefs", { fieldType: "JSON", defaultValue: '{"theme":"dark"}', displayOrder: 5 }),
      def("note", { displayOrder: 6 }),
    ];
    const result = resolveForCreate(defs, { credit_limit: "250" }, { entity: { country: "DE" } }, NOW);
    expect(result).toEqual({
      credit_limit: 250,
      newsletter: true,
      currency: "EUR",
      since: "2024-01-01",
      prefs: { theme: "dark" },
    });
    expect(Object.keys(result)).toEqual(["credit_limit", "newsletter", "currency", "since", "prefs"]);
    expect(resolveForCreate(defs, { currency: "GBP" }, { entity: { country: "DE" } }, NOW).currency).toBe("GBP");
    expect(resolveForCreate(defs, {}, { entity: { country: "US" } }, NOW).currency).toBe("USD");
  });

  it("keeps an explicit null for an optional field", () => {
    const defs = [def("note", { defaultValue: "hello" })];
    expect(resolveForCreate(defs, { note: null }, {}, NOW)).toEqual({ note: null });
  });

  it("computes computed fields over the merged values, ignoring user values for them", () => {
    const defs = [
      def("price", { fieldType: "NUMBER", defaultValue: "10" }),
      def("qty", { fieldType: "NUMBER" }),
      def("total", { fieldType: "COMPUTED", computedFormula: "subtotal * 1.2" }),
      def("subtotal", { fieldType: "COMPUTED", computedFormula: "price * qty" }),
      def("created_on", { fieldType: "DATE", defaultStrategy: "COMPUTED", computedFormula: "today()" }),
      def("code", { fieldType: "NUMBER", defaultStrategy: "COMPUTED", computedFormula: "'42'" }),
      def("bad", { fieldType: "NUMBER", defaultStrategy: "COMPUTED", computedFormula: "'x'" }),
      def("tier", { fieldType: "COMPUTED", computedFormula: "uppercase(customer.tier)" }),
    ];
    const result = resolveForCreate(defs, { qty: "3", total: 1, subtotal: 2 }, { customer: { tier: "gold" } }, NOW);
    expect(result).toEqual({
      price: 10,
      qty: 3,
      total: 36,
      subtotal: 30,
      created_on: "2024-03-15",
      code: 42,
      bad: null,
      tier: "GOLD",
    });
  });

  it("sees the injected time as context timestamp", () => {
    const defs = [def("stamp", { fieldType: "COMPUTED", computedFormula: "timestamp" })];
    expect(resolveForCreate(defs, {}, {}, NOW)).toEqual({ stamp: "2024-03-15T10:20:30.000Z" });
  });

  it("computes null for a stored formula that no longer checks", () => {
    const defs = [def("x", { fieldType: "COMPUTED", computedFormula: "evaluate('1')" })];
    expect(resolveForCreate(defs, {}, {}, NOW)).toEqual({ x: null });
  });

  it("reports every violation at once, one per field, with the requiring rule", () => {
    const defs = [
      def("vat_id", {
        validationRules: [{ name: "eu-vat", priority: 5, when: isDE, then: { required: true } }],
      }),
      def("age", { fieldType: "NUMBER", validation: { min: 18, max: 10 } }),
      def("email", { isRequired: true }),
      def("code", { validation: { minLength: 5, pattern: "^\\d+$" } }),
      def("size", select),
      def("fine", {}),
    ];
    const violations = violationsOf(() =>
      resolveForCreate(defs, { age: "abc", code: "ab", size: "xl", fine: "ok", bogus: 1, email: "  " }, { entity: { country: "DE" } }, NOW),
    );
    expect(violations).toEqual([
      { field: "customFields.bogus", description: "is not a custom field of this entity type" },
      { field: "customFields.age", description: "must be a number" },
      { field: "customFields.code", description: "must be at least 5 characters long" },
      { field: "customFields.email", description: "is required" },
      { field: "customFields.size", description: "must be one of: s, l" },
      { field: "customFields.vat_id", description: 'is required by rule "eu-vat"', rule: "eu-vat" },
    ]);
  });

  it("validates a default like any value", () => {
    const defs = [def("n", { fieldType: "NUMBER", defaultValue: "5", validation: { min: 10 } })];
    expect(violationsOf(() => resolveForCreate(defs, {}, {}, NOW))).toEqual([
      { field: "customFields.n", description: "must be at least 10" },
    ]);
  });

  it("ignores inactive definitions and drops their keys; deleted ones are unknown", () => {
    const defs = [
      def("old", { isActive: false, isRequired: true, defaultValue: "x" }),
      def("gone", { deletedAt: new Date("2024-02-01T00:00:00Z") }),
      def("live", { defaultValue: "y" }),
    ];
    expect(resolveForCreate(defs, { old: 5 }, {}, NOW)).toEqual({ live: "y" });
    expect(violationsOf(() => resolveForCreate(defs, { gone: "z" }, {}, NOW))).toEqual([
      { field: "customFields.gone", description: "is not a custom field of this entity type" },
    ]);
  });

  it("refuses a customFields value that is not an object", () => {
    expect(violationsOf(() => resolveForCreate([], [1, 2], {}, NOW))).toEqual([
      { field: "customFields", description: "must be an object keyed by field key" },
    ]);
    expect(resolveForCreate([def("a", { defaultValue: "d" })], undefined, {}, NOW)).toEqual({ a: "d" });
  });
});

describe("prototype pollution", () => {
  const hostile = () => JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "prototype": 1, "name": "x"}');

  it("refuses __proto__, constructor and prototype keys as unknown and pollutes nothing", () => {
    const defs = [def("name"), def("constructor"), def("__proto__")];
    for (const run of [
      () => resolveForCreate(defs, hostile(), {}, NOW),
      () => validateForUpdate(defs, hostile(), {}, NOW),
    ]) {
      expect(violationsOf(run).map((v) => v.field)).toEqual([
        "customFields.__proto__",
        "customFields.constructor",
        "customFields.prototype",
      ]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("returns plain objects whose prototype is untouched", () => {
    const result = resolveForCreate([def("name")], { name: "x" }, {}, NOW);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(result).toEqual({ name: "x" });
  });

  it("cannot be polluted through rule context paths either", () => {
    const defs = [
      def("x", {
        validationRules: [
          {
            name: "proto",
            priority: 1,
            when: { operator: "AND", conditions: [{ field: "entity.__proto__.polluted", operator: "exists" }] },
            then: { required: true },
          },
        ],
      }),
    ];
    expect(resolveForCreate(defs, {}, { entity: hostile() }, NOW)).toEqual({});
  });
});

describe("computed passes", () => {
  it("stops after the pass that changes nothing", () => {
    const values = new Map<string, unknown>([["a", 2]]);
    const defs = [def("b", { fieldType: "COMPUTED", computedFormula: "a * 2" }), def("c", { fieldType: "COMPUTED", computedFormula: "b + 1" })];
    expect(computeValues(defs, values, {}, NOW)).toEqual({ passes: 2, settled: true });
    expect(Object.fromEntries(values)).toEqual({ a: 2, b: 4, c: 5 });
  });

  it(`runs at most ${MAX_PASSES} passes over a stored cycle and keeps the last values`, () => {
    const defs = [
      def("a", { fieldType: "COMPUTED", computedFormula: "b > 0 ? b + 1 : 1", displayOrder: 1 }),
      def("b", { fieldType: "COMPUTED", computedFormula: "a > 0 ? a + 1 : 1", displayOrder: 2 }),
    ];
    const values = new Map<string, unknown>();
    expect(computeValues(defs, values, {}, NOW)).toEqual({ passes: 5, settled: false });
    expect(Object.fromEntries(values)).toEqual({ a: 9, b: 10 });
    expect(resolveForCreate(defs, {}, {}, NOW)).toEqual({ a: 9, b: 10 });
  });
});

describe("validateForUpdate", () => {
  const defs = [
    def("email", { isRequired: true }),
    def("age", { fieldType: "NUMBER", defaultValue: "1" }),
    def("note", { defaultValue: "n" }),
    def("old", { isActive: false }),
    def("total", { fieldType: "COMPUTED", computedFormula: "age * 2" }),
  ];

  it("validates and coerces only the supplied keys, without defaults", () => {
    expect(validateForUpdate(defs, { age: "42" }, {}, NOW)).toEqual({ age: 42 });
    expect(validateForUpdate(defs, {}, {}, NOW)).toEqual({});
  });

  it("lets an optional field be cleared but not a required one", () => {
    expect(validateForUpdate(defs, { age: null }, {}, NOW)).toEqual({ age: null });
    for (const empty of [null, "", "   "]) {
      expect(violationsOf(() => validateForUpdate(defs, { email: empty }, {}, NOW))).toEqual([
        { field: "customFields.email", description: "is required" },
      ]);
    }
  });

  it("applies validationRules in the update context", () => {
    const ruled = [
      def("vat", {
        validationRules: [
          {
            name: "de",
            priority: 1,
            when: { operator: "AND", conditions: [{ field: "entity.country", operator: "equals", value: "DE" }] },
            then: { required: true, validation: { minLength: 3 } },
          },
        ],
      }),
    ];
    expect(violationsOf(() => validateForUpdate(ruled, { vat: "ab" }, { entity: { country: "DE" } }, NOW))).toEqual([
      { field: "customFields.vat", description: "must be at least 3 characters long" },
    ]);
    expect(validateForUpdate(ruled, { vat: "ab" }, { entity: { country: "FR" } }, NOW)).toEqual({ vat: "ab" });
  });

  it("drops inactive and computed keys, refuses unknown ones, reports all", () => {
    expect(validateForUpdate(defs, { old: "x", total: 5, note: "ok" }, {}, NOW)).toEqual({ note: "ok" });
    expect(violationsOf(() => validateForUpdate(defs, { nope: 1, age: "x", email: null }, {}, NOW))).toEqual([
      { field: "customFields.nope", description: "is not a custom field of this entity type" },
      // Same display order: by key.
      { field: "customFields.age", description: "must be a number" },
      { field: "customFields.email", description: "is required" },
    ]);
  });
});
