import { describe, expect, it } from "vitest";
import {
  checkDefinition,
  checkImmutable,
  definitionError,
  type DefinitionViolation,
} from "../../../src/domain/customfields/definition-rules.js";
import type { Rule } from "../../../src/domain/customfields/definition.js";
import { def } from "./fixtures.js";

const fields = (violations: DefinitionViolation[]) => violations.map((v) => v.field);
const when = { operator: "AND" as const, conditions: [{ field: "entity.country", operator: "equals", value: "DE" }] };

describe("checkDefinition", () => {
  it("accepts a sound definition", () => {
    expect(checkDefinition(def("credit_limit", { fieldType: "NUMBER", validation: { min: 0, max: 10 }, defaultValue: "5" }), [])).toEqual([]);
  });

  it.each([
    ["Credit", "must contain only lowercase letters and underscores"],
    ["credit-limit", "must contain only lowercase letters and underscores"],
    ["a1", "must contain only lowercase letters and underscores"],
    ["", "must contain only lowercase letters and underscores"],
    ["a".repeat(65), "must be at most 64 characters long"],
    ["__proto__", '"__proto__" is reserved'],
    ["constructor", '"constructor" is reserved'],
    ["prototype", '"prototype" is reserved'],
  ])("refuses the field key %j", (fieldKey, description) => {
    expect(checkDefinition(def(fieldKey, { fieldLabel: "Label" }), [])).toEqual([{ field: "fieldKey", description, reason: "VALIDATION_FAILED" }]);
  });

  it("accepts a 64-character key", () => {
    expect(checkDefinition(def("a".repeat(64)), [])).toEqual([]);
  });

  it("applies the four request-schema rules", () => {
    expect(fields(checkDefinition(def("c", { fieldType: "COMPUTED" }), []))).toEqual(["computedFormula"]);
    expect(fields(checkDefinition(def("c", { defaultStrategy: "COMPUTED", computedFormula: "  " }), []))).toEqual([
      "computedFormula",
    ]);
    expect(fields(checkDefinition(def("r", { defaultStrategy: "RULE_BASED" }), []))).toEqual(["defaultRules"]);
    expect(fields(checkDefinition(def("s", { fieldType: "SELECT" }), []))).toEqual(["uiConfig.options"]);
    expect(checkImmutable(def("a"), { fieldKey: "b", entityType: "Customer" })).toEqual([
      { field: "fieldKey", description: "cannot be changed after creation", reason: "FIELD_KEY_IMMUTABLE" },
    ]);
    expect(fields(checkImmutable(def("a"), { fieldKey: "a", entityType: "Role" }))).toEqual(["entityType"]);
    expect(checkImmutable(def("a"), {})).toEqual([]);
  });

  it("checks empty labels, entity types and option values", () => {
    const bad = def("s", {
      fieldLabel: " ",
      entityType: "",
      fieldType: "SELECT",
      uiConfig: { options: [{ label: "A", value: "a" }, { label: "B", value: "a" }, { label: "C", value: "" }] },
    });
    expect(fields(checkDefinition(bad, []))).toEqual([
      "entityType",
      "fieldLabel",
      "uiConfig.options[1].value",
      "uiConfig.options[2].value",
    ]);
  });

  it("refuses a bad formula on computedFormula with INVALID_FORMULA", () => {
    const violations = checkDefinition(def("c", { fieldType: "COMPUTED", computedFormula: "evaluate('1')" }), []);
    expect(violations).toEqual([
      {
        field: "computedFormula",
        description: 'formula: "evaluate" is not an allowed function (at "evaluate("1")")',
        reason: "INVALID_FORMULA",
      },
    ]);
  });

  it("refuses unsafe patterns in validation and in rule outcomes", () => {
    const rules: Rule[] = [{ name: "r", priority: 1, when, then: { validation: { pattern: "(a)\\1" } } }];
    const violations = checkDefinition(def("p", { validation: { pattern: "(?=x)" }, validationRules: rules }), []);
    expect(fields(violations)).toEqual(["validation.pattern", "validationRules[0].then.validation.pattern"]);
    expect(violations.every((v) => v.reason === "UNSAFE_PATTERN")).toBe(true);
    expect(violations[0].description).toContain('pattern "(?=x)"');
  });

  it("checks validation sanity", () => {
    const violations = checkDefinition(
      def("v", {
        validation: { min: 5, max: 1, minLength: -1, maxLength: 2.5, minDate: "2024-13-01", maxDate: "2024-01-01T00:00Z", enum: [1 as unknown as string] },
      }),
      [],
    );
    expect(violations.map((v) => [v.field, v.description])).toEqual([
      ["validation.min", "must not exceed max"],
      ["validation.minLength", "must be a non-negative integer"],
      ["validation.maxLength", "must be a non-negative integer"],
      ["validation.minDate", "must be a YYYY-MM-DD date"],
      ["validation.maxDate", "must be a YYYY-MM-DD date"],
      ["validation.enum", "must list strings"],
    ]);
    expect(fields(checkDefinition(def("v", { validation: { minLength: 5, maxLength: 2, minDate: "2024-02-01", maxDate: "2024-01-01" } }), []))).toEqual([
      "validation.minLength",
      "validation.minDate",
    ]);
  });

  it("checks rule shapes: name, priority, group operator, condition operator, paths, list values", () => {
    const rules = [
      { name: "", priority: Number.NaN, when: { operator: "XOR", conditions: [] } },
      {
        name: "ok",
        priority: 1,
        when: {
          operator: "OR",
          conditions: [
            { field: "entity.__proto__.x", operator: "equals", value: 1 },
            { field: "entity.x", operator: "like", value: 1 },
            { field: "entity.x", operator: "in", value: "DE" },
            { field: "entity.x", operator: "notIn", value: ["DE"] },
          ],
        },
        else: { validation: { min: 3, max: 2 } },
      },
    ] as unknown as Rule[];
    expect(fields(checkDefinition(def("r", { validationRules: rules }), []))).toEqual([
      "validationRules[0].name",
      "validationRules[0].priority",
      "validationRules[0].when.operator",
      "validationRules[1].when.conditions[0].field",
      "validationRules[1].when.conditions[1].operator",
      "validationRules[1].when.conditions[2].value",
      "validationRules[1].else.validation.min",
    ]);
  });

  it("checks defaults against the field type", () => {
    expect(checkDefinition(def("n", { fieldType: "NUMBER", defaultValue: "abc" }), [])).toEqual([
      { field: "defaultValue", description: "must be a number", reason: "VALIDATION_FAILED" },
    ]);
    expect(fields(checkDefinition(def("n", { fieldType: "NUMBER", defaultValue: "3", validation: { min: 5 } }), []))).toEqual([
      "defaultValue",
    ]);
    const rules: Rule[] = [{ name: "r", priority: 1, when, then: { defaultValue: "x" } }];
    expect(fields(checkDefinition(def("b", { fieldType: "BOOLEAN", defaultStrategy: "RULE_BASED", defaultRules: rules }), []))).toEqual([
      "defaultRules[0].then.defaultValue",
    ]);
    expect(checkDefinition(def("j", { fieldType: "JSON", defaultValue: '{"a":1}' }), [])).toEqual([]);
  });

  it("refuses a computed cycle among the siblings and the candidate", () => {
    const siblings = [
      def("a", { fieldType: "COMPUTED", computedFormula: "b + 1" }),
      def("b", { fieldType: "COMPUTED", computedFormula: "1" }),
    ];
    const candidate = def("b", { fieldType: "COMPUTED", computedFormula: "a * 2" });
    expect(checkDefinition(candidate, siblings)).toEqual([
      { field: "computedFormula", description: "computed fields form a cycle: b -> a -> b", reason: "FORMULA_CYCLE" },
    ]);
    expect(checkDefinition(def("b", { fieldType: "COMPUTED", computedFormula: "2" }), siblings)).toEqual([]);
    const inactive = siblings.map((s) => ({ ...s, isActive: false }));
    expect(checkDefinition(candidate, inactive)).toEqual([]);
  });
});

describe("definitionError", () => {
  it("uses the common reason, else VALIDATION_FAILED, and strips reasons from violations", () => {
    const cycle = definitionError([{ field: "computedFormula", description: "loop", reason: "FORMULA_CYCLE" }]);
    expect(cycle.reason).toBe("FORMULA_CYCLE");
    expect(cycle.violations).toEqual([{ field: "computedFormula", description: "loop" }]);
    const mixed = definitionError([
      { field: "a", description: "x", reason: "UNSAFE_PATTERN" },
      { field: "b", description: "y", reason: "VALIDATION_FAILED" },
    ]);
    expect(mixed.reason).toBe("VALIDATION_FAILED");
    expect(mixed.violations).toHaveLength(2);
  });
});
