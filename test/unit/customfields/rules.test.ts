import { describe, expect, it } from "vitest";
import type { ConditionGroup, Rule } from "../../../src/domain/customfields/definition.js";
import { effectiveField, evaluateRules, mergeValidation, sortRules } from "../../../src/domain/customfields/rules.js";
import { def } from "./fixtures.js";

const isDE = { operator: "AND" as const, conditions: [{ field: "entity.country", operator: "equals", value: "DE" }] };
const isAdmin = { operator: "AND" as const, conditions: [{ field: "user.role", operator: "equals", value: "admin" }] };
const never: ConditionGroup = { operator: "OR", conditions: [] };

function rule(name: string, priority: number, when: ConditionGroup = never, then = {}, otherwise?: object): Rule {
  return { name, priority, when, then, ...(otherwise ? { else: otherwise } : {}) };
}

describe("rule order and matching", () => {
  it("sorts by priority, higher first, keeping stored order for ties", () => {
    const sorted = sortRules([rule("a", 1), rule("b", 5), rule("c", 1), rule("d", 5)]);
    expect(sorted.map((r) => r.name)).toEqual(["b", "d", "a", "c"]);
  });

  it("the first matching rule wins with its then", () => {
    const rules = [
      rule("low", 1, isDE, { required: false }),
      rule("high", 10, isDE, { required: true }),
      rule("admin", 5, isAdmin, { defaultValue: "x" }),
    ];
    const match = evaluateRules(rules, { entity: { country: "DE" }, user: { role: "admin" } });
    expect(match).toMatchObject({ outcome: { required: true }, ruleName: "high", matched: true });
  });

  it("without a match, the else of the highest-priority rule that has one applies", () => {
    const rules = [
      rule("a", 1, isDE, { required: true }, { required: false, defaultValue: "a-else" }),
      rule("b", 7, isDE, { required: true }),
      rule("c", 3, isDE, { required: true }, { defaultValue: "c-else" }),
    ];
    const match = evaluateRules(rules, { entity: { country: "FR" } });
    expect(match).toMatchObject({ outcome: { defaultValue: "c-else" }, ruleName: "c", matched: false });
  });

  it("gives nothing when no rule matches and none has an else", () => {
    expect(evaluateRules([rule("a", 1, isDE, { required: true })], { entity: {} })).toBeUndefined();
    expect(evaluateRules([], {})).toBeUndefined();
  });

  it("a matching rule without then stops lower rules", () => {
    const rules: Rule[] = [{ name: "stop", priority: 9, when: isDE }, rule("later", 1, isDE, { required: true })];
    expect(evaluateRules(rules, { entity: { country: "DE" } })).toMatchObject({ outcome: {}, ruleName: "stop", matched: true });
  });
});

describe("outcome merge", () => {
  it("overrides validation key by key", () => {
    const merged = mergeValidation(
      { min: 1, max: 10, pattern: "^a", enum: ["x"] },
      { max: 100, minLength: 2 },
    );
    expect(merged).toEqual({ min: 1, max: 100, minLength: 2, pattern: "^a", enum: ["x"] });
  });

  it("treats an empty enum as not named", () => {
    expect(mergeValidation({ enum: ["x"] }, { enum: [] })).toEqual({ enum: ["x"] });
    expect(mergeValidation({ enum: ["x"] }, { enum: ["y", "z"] })).toEqual({ enum: ["y", "z"] });
  });

  it("does not mutate the static validation", () => {
    const base = { min: 1 };
    mergeValidation(base, { min: 5 });
    expect(base).toEqual({ min: 1 });
  });

  it("effectiveField applies validationRules to required and validation, keeping unnamed keys", () => {
    const field = def("vat_id", {
      isRequired: false,
      validation: { minLength: 5, maxLength: 20 },
      defaultValue: "static",
      validationRules: [rule("eu-needs-vat", 10, isDE, { required: true, validation: { minLength: 9 } })],
    });
    expect(effectiveField(field, { entity: { country: "DE" } })).toMatchObject({
      required: true,
      validation: { minLength: 9, maxLength: 20 },
      defaultValue: "static",
      requiredByRule: "eu-needs-vat",
    });
    expect(effectiveField(field, { entity: { country: "FR" } })).toEqual({
      required: false,
      validation: { minLength: 5, maxLength: 20 },
      defaultValue: "static",
    });
  });

  it("a rule may make a required field optional", () => {
    const field = def("x", { isRequired: true, validationRules: [rule("admins-skip", 1, isAdmin, { required: false })] });
    expect(effectiveField(field, { user: { role: "admin" } }).required).toBe(false);
    expect(effectiveField(field, { user: { role: "clerk" } }).required).toBe(true);
  });

  it("defaultRules set the default only for the rule-based strategy, the static one is the fallback", () => {
    const rules = [rule("de-default", 1, isDE, { defaultValue: "EUR" })];
    const ruleBased = def("currency", { defaultStrategy: "RULE_BASED", defaultValue: "USD", defaultRules: rules });
    expect(effectiveField(ruleBased, { entity: { country: "DE" } })).toMatchObject({
      defaultValue: "EUR",
      defaultFromRule: "de-default",
    });
    expect(effectiveField(ruleBased, { entity: { country: "US" } }).defaultValue).toBe("USD");
    const staticOne = def("currency", { defaultStrategy: "STATIC", defaultValue: "USD", defaultRules: rules });
    expect(effectiveField(staticOne, { entity: { country: "DE" } }).defaultValue).toBe("USD");
  });

  it("validationRules do not set defaults and defaultRules do not set required", () => {
    const field = def("x", {
      defaultStrategy: "RULE_BASED",
      defaultRules: [rule("d", 1, isDE, { required: true, defaultValue: "from-default-rule" })],
      validationRules: [rule("v", 1, isDE, { defaultValue: "from-validation-rule" })],
    });
    const effective = effectiveField(field, { entity: { country: "DE" } });
    expect(effective.required).toBe(false);
    expect(effective.defaultValue).toBe("from-default-rule");
  });
});
