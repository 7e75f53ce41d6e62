/**
 * The staged resolution engine and its trace (resolution.ts): each stage sees the previous one,
 * computed results are validated like other values, and the explanation is what the create did.
 */
import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/domain/errors.js";
import { refusalReason, resolveTraced } from "../../../src/domain/customfields/resolution.js";
import { resolveForCreate } from "../../../src/domain/customfields/values.js";
import { def, NOW } from "./fixtures.js";

const tierIsGold = { operator: "AND" as const, conditions: [{ field: "entity.customFields.tier", operator: "equals", value: "gold" }] };

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected a refusal");
}

describe("stage visibility", () => {
  const defs = [
    def("tier", { defaultValue: "gold", displayOrder: 1 }),
    def("discount", {
      fieldType: "NUMBER",
      defaultStrategy: "RULE_BASED",
      defaultValue: "0",
      defaultRules: [{ name: "gold-discount", priority: 1, when: tierIsGold, then: { defaultValue: 15 } }],
      displayOrder: 2,
    }),
    def("price", { fieldType: "NUMBER", defaultValue: "100", displayOrder: 3 }),
    def("net", { fieldType: "COMPUTED", computedFormula: "price - discount", displayOrder: 4 }),
  ];

  it("a rule sees a value that came from a static default, and a formula sees the rule's default", () => {
    // The caller's entity says nothing about tier: only the static default can make the rule match.
    expect(resolveForCreate(defs, {}, { entity: { name: "Acme" } }, NOW)).toEqual({ tier: "gold", discount: 15, price: 100, net: 85 });
  });

  it("the resolved values win over the caller's entity.customFields for keys being resolved", () => {
    const context = { entity: { customFields: { tier: "silver", legacy: "kept" } } };
    expect(resolveForCreate(defs, {}, context, NOW)).toMatchObject({ tier: "gold", discount: 15 });
    const withUser = resolveForCreate(defs, { tier: "silver" }, { entity: { customFields: { tier: "gold" } } }, NOW);
    expect(withUser).toMatchObject({ tier: "silver", discount: 0, net: 100 });
  });

  it("a validation rule on a defaulted field sees the default too", () => {
    const vat = def("vat_id", {
      displayOrder: 5,
      validationRules: [{ name: "gold-needs-vat", priority: 1, when: tierIsGold, then: { required: true } }],
    });
    const error = refusal(() => resolveForCreate([...defs, vat], {}, {}, NOW));
    expect(error.violations).toEqual([{ field: "customFields.vat_id", description: 'is required by rule "gold-needs-vat"', rule: "gold-needs-vat" }]);
  });
});

describe("computed results are validated", () => {
  const capped = def("score", { fieldType: "NUMBER", defaultStrategy: "COMPUTED", computedFormula: "base * 2", validation: { max: 10 }, displayOrder: 2 });
  const base = def("base", { fieldType: "NUMBER", displayOrder: 1 });

  it("a computed 20 on a number field with max 10 is refused on the field", () => {
    const error = refusal(() => resolveForCreate([base, capped], { base: 10 }, {}, NOW));
    expect(error.reason).toBe("CUSTOM_FIELD_VALIDATION_FAILED");
    expect(error.violations).toEqual([{ field: "customFields.score", description: "must be at most 10" }]);
    expect(resolveForCreate([base, capped], { base: 5 }, {}, NOW)).toEqual({ base: 5, score: 10 });
  });

  it("a required computed field whose formula gives null is refused", () => {
    const required = def("label", { fieldType: "COMPUTED", computedFormula: "missing", isRequired: true });
    expect(refusal(() => resolveForCreate([required], {}, {}, NOW)).violations).toEqual([{ field: "customFields.label", description: "is required" }]);
  });

  it("a user value for a computed field is ignored, and the explanation says so", () => {
    const resolution = resolveTraced([base, capped], { base: 2, score: 999 }, {}, NOW);
    expect(resolution.customFields).toEqual({ base: 2, score: 4 });
    expect(resolution.fields[1]).toMatchObject({ fieldKey: "score", source: "COMPUTED", value: 4, userValueIgnored: true });
  });
});

describe("the explanation", () => {
  const defs = [
    def("tier", { defaultValue: "gold", displayOrder: 1 }),
    def("discount", {
      fieldType: "NUMBER",
      defaultStrategy: "RULE_BASED",
      defaultRules: [
        {
          name: "gold-in-de",
          priority: 1,
          when: {
            operator: "AND",
            conditions: [
              { field: "entity.customFields.tier", operator: "equals", value: "gold" },
              { field: "user.role", operator: "in", value: ["sales", "admin"] },
            ],
          },
          then: { defaultValue: 15 },
        },
      ],
      validation: { min: 0, max: 50 },
      displayOrder: 2,
    }),
    def("qty", { fieldType: "NUMBER", displayOrder: 3, isRequired: true }),
    def("total", { fieldType: "NUMBER", defaultStrategy: "COMPUTED", computedFormula: "qty * (100 - discount)", validation: { max: 1000 }, displayOrder: 4 }),
    def("note", { displayOrder: 5 }),
  ];
  const context = { user: { id: "u1", role: "sales" } };

  it("names each field's source, the rule's conditions, the formula's inputs and the constraints checked", () => {
    const resolution = resolveTraced(defs, { qty: 2 }, context, NOW);
    expect(resolution.violations).toEqual([]);
    expect(refusalReason(resolution)).toBeUndefined();
    expect(resolution.customFields).toEqual({ tier: "gold", discount: 15, qty: 2, total: 170 });
    const [tier, discount, qty, total, note] = resolution.fields;
    expect(tier).toEqual({ fieldKey: "tier", source: "STATIC_DEFAULT", value: "gold", constraints: [{ name: "type", passed: true }] });
    expect(discount).toEqual({
      fieldKey: "discount",
      source: "RULE",
      value: 15,
      defaultRule: {
        name: "gold-in-de",
        matched: true,
        conditions: [
          { field: "entity.customFields.tier", operator: "equals", expected: "gold", actual: "gold", held: true },
          { field: "user.role", operator: "in", expected: ["sales", "admin"], actual: "sales", held: true },
        ],
      },
      constraints: [
        { name: "type", passed: true },
        { name: "min", passed: true },
        { name: "max", passed: true },
      ],
    });
    expect(qty).toMatchObject({ source: "USER", value: 2, constraints: [{ name: "required", passed: true }, { name: "type", passed: true }] });
    expect(total).toMatchObject({
      source: "COMPUTED",
      value: 170,
      formula: { source: "qty * (100 - discount)", inputs: { qty: 2, discount: 15 } },
      constraints: [{ name: "type", passed: true }, { name: "max", passed: true }],
    });
    expect(note).toEqual({ fieldKey: "note", source: "NONE", constraints: [] });
  });

  it("reports violations, computed ones included, without throwing", () => {
    const resolution = resolveTraced(defs, { qty: 20, discount: "40", nope: 1 }, { user: { id: "u1", role: "viewer" } }, NOW);
    expect(resolution.fields[1]).toMatchObject({ source: "USER", value: 40 });
    expect(resolution.fields[1]!.defaultRule).toBeUndefined();
    expect(resolution.fields[3]).toMatchObject({
      source: "COMPUTED",
      formula: { inputs: { qty: 20, discount: 40 } },
      constraints: [{ name: "type", passed: true }, { name: "max", passed: false }],
      violation: { field: "customFields.total", description: "must be at most 1000" },
    });
    expect(resolution.violations.map((v) => v.field)).toEqual(["customFields.nope", "customFields.total"]);
    expect(resolution.customFields).toEqual({ tier: "gold", discount: 40, qty: 20 });
    expect(refusalReason(resolution)).toBe("CUSTOM_FIELD_VALIDATION_FAILED");
  });

  it("traces the conditions of a rule that did not match when its else applied", () => {
    const fallback = def("band", {
      defaultStrategy: "RULE_BASED",
      defaultRules: [{ name: "big", priority: 1, when: { operator: "AND", conditions: [{ field: "entity.size", operator: "greaterThan", value: 10 }] }, then: { defaultValue: "L" }, else: { defaultValue: "S" } }],
    });
    const resolution = resolveTraced([fallback], {}, { entity: { size: 3 } }, NOW);
    expect(resolution.fields[0]).toMatchObject({
      source: "RULE",
      value: "S",
      defaultRule: { name: "big", matched: false, conditions: [{ field: "entity.size", operator: "greaterThan", expected: 10, actual: 3, held: false }] },
    });
  });

  it("gives the same values and refusals as resolveForCreate (one engine)", () => {
    const inputs: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ qty: 2 }, context],
      [{ qty: 3, discount: 60 }, context],
      [{}, {}],
      [{ qty: "7", note: "x" }, { user: { role: "admin" } }],
    ];
    for (const [values, ctx] of inputs) {
      const traced = resolveTraced(defs, values, ctx, NOW);
      const reason = refusalReason(traced);
      if (reason === undefined) expect(resolveForCreate(defs, values, ctx, NOW)).toEqual(traced.customFields);
      else expect(refusal(() => resolveForCreate(defs, values, ctx, NOW))).toMatchObject({ reason, violations: traced.violations });
    }
  });
});
