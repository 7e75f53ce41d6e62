import { describe, expect, it } from "vitest";
import { checkDefinition } from "../../../src/domain/customfields/definition-rules.js";
import { DEFAULT_CUSTOM_FIELD_LIMITS } from "../../../src/domain/customfields/limits.js";
import { PatternBudget } from "../../../src/domain/customfields/pattern-budget.js";
import { maxMatchedBytes, matchStepsBound } from "../../../src/domain/customfields/pattern-cost.js";
import { programSizeBound } from "../../../src/domain/customfields/pattern-program.js";
import { matchesPattern, patternCompileSteps, releaseCompiledPatterns } from "../../../src/domain/customfields/pattern.js";
import { resolveTraced } from "../../../src/domain/customfields/resolution.js";
import { validateForUpdate } from "../../../src/domain/customfields/values.js";
import { AppError } from "../../../src/domain/errors.js";
import { def, NOW } from "./fixtures.js";

const LIMITS = DEFAULT_CUSTOM_FIELD_LIMITS;
const PATTERN = "^[a-z]+(-[a-z]+)*$";
/** The longest value one match of PATTERN may check: each costs about maxMatchSteps. */
const LONGEST = "a".repeat(maxMatchedBytes(programSizeBound(PATTERN)!, LIMITS.patterns.maxMatchSteps));
const UNICODE = "^\\p{L}+$";

/** Fields that each check PATTERN: one request checking all of them would cost n longest matches. */
function patternFields(n: number, pattern = PATTERN) {
  return Array.from({ length: n }, (_, i) => def(`field_${String.fromCharCode(97 + i)}`, { displayOrder: i, validation: { pattern } }));
}

function valuesFor(defs: readonly { fieldKey: string }[], value = LONGEST): Record<string, string> {
  return Object.fromEntries(defs.map((d) => [d.fieldKey, value]));
}

describe("the pattern budget of one request", () => {
  it("keeps matches and compilations apart, spending only what fits", () => {
    const budget = new PatternBudget({ maxRequestMatchSteps: 10, maxRequestCompileSteps: 5 });
    expect(budget.trySpend("match", 6)).toBe(true);
    expect(budget.trySpend("match", 5)).toBe(false);
    expect(budget.trySpend("compile", 5)).toBe(true);
    expect(budget.trySpend("match", 4)).toBe(true);
    expect(budget.trySpend("compile", 1)).toBe(false);
    expect(budget.trySpend("match", 1)).toBe(false);
  });

  it("the longest value fits in a text field (10,000 characters), so the pattern bound is what stops it", () => {
    expect(LONGEST.length).toBeGreaterThan(1000);
    expect(LONGEST.length).toBeLessThan(10_000);
  });

  it("stops matching a create's values once their matches would exceed it, naming each field not checked", () => {
    const perMatch = matchStepsBound(programSizeBound(PATTERN)!, LONGEST.length);
    const fitting = Math.floor(LIMITS.patterns.maxRequestMatchSteps / perMatch);
    expect(fitting).toBeGreaterThanOrEqual(1);
    const defs = patternFields(fitting + 3);
    const resolution = resolveTraced(defs, valuesFor(defs), {}, NOW, LIMITS);
    // The first fields are checked (and pass); the budget runs out for the rest.
    expect(resolution.violations.map((v) => v.field)).toEqual(defs.slice(fitting).map((d) => `customFields.${d.fieldKey}`));
    expect(resolution.violations[0]!.description).toContain(`would take more than ${LIMITS.patterns.maxRequestMatchSteps} steps; send fewer or shorter values`);
    expect(Object.keys(resolution.customFields)).toEqual(defs.slice(0, fitting).map((d) => d.fieldKey));
  });

  it("lets many short values through: the budget stops only what would be slow", () => {
    const defs = patternFields(26);
    expect(resolveTraced(defs, valuesFor(defs, "abc-def"), {}, NOW, LIMITS).violations).toEqual([]);
  });

  it("bounds an update's checks the same way", () => {
    const defs = patternFields(10);
    let refusal: AppError | undefined;
    try {
      validateForUpdate(defs, valuesFor(defs), {}, NOW, LIMITS);
    } catch (error) {
      refusal = error as AppError;
    }
    expect(refusal?.reason).toBe("CUSTOM_FIELD_VALIDATION_FAILED");
    expect(refusal?.message).toContain("send fewer or shorter values");
  });

  it("charges a compilation the cache does not hold to the compile budget, and nothing for one it holds", () => {
    releaseCompiledPatterns();
    const compile = patternCompileSteps(UNICODE);
    const tenant = "budget-tenant";
    const budget = (maxRequestCompileSteps: number) => new PatternBudget({ maxRequestMatchSteps: LIMITS.patterns.maxRequestMatchSteps, maxRequestCompileSteps });
    expect(matchesPattern(UNICODE, "é", { tenant, limits: LIMITS.patterns, budget: budget(compile - 1) })).toEqual({ overBudget: "compile", budgetSteps: compile - 1 });
    expect(matchesPattern(UNICODE, "é", { tenant, limits: LIMITS.patterns, budget: budget(compile) })).toBe(true);
    // Now cached: no compile budget is needed.
    expect(matchesPattern(UNICODE, "é", { tenant, limits: LIMITS.patterns, budget: budget(0) })).toBe(true);
    releaseCompiledPatterns();
  });

  it("on a cold cache, a create compiles every pattern an entity type may have, and reports those it could not", () => {
    releaseCompiledPatterns();
    const defs = [def("name", { validation: { pattern: UNICODE } }), ...patternFields(5, "^[a-z]{2}-[0-9]+$").map((d, i) => ({ ...d, validation: { pattern: `^[a-z]{${i + 1}}-[0-9]+$` } }))];
    for (const [i, d] of defs.entries()) expect(checkDefinition({ ...d, id: undefined }, defs.slice(0, i), LIMITS)).toEqual([]);
    const values = { name: "Zoë", ...Object.fromEntries(defs.slice(1).map((d, i) => [d.fieldKey, `${"a".repeat(i + 1)}-1`])) };
    expect(resolveTraced(defs, values, {}, NOW, LIMITS).violations).toEqual([]);
    releaseCompiledPatterns();
    // Definitions over the compile budget (saved before it existed) compile what fits, and say so for the rest.
    const legacy = [def("a", { validation: { pattern: UNICODE } }), def("b", { displayOrder: 1, validation: { pattern: "^[\\p{L} ]+$" } })];
    const [violation] = resolveTraced(legacy, { a: "x", b: "y" }, {}, NOW, LIMITS).violations;
    expect(violation).toEqual({ field: "customFields.b", description: expect.stringContaining("compiling this request's patterns would take more than") });
    releaseCompiledPatterns();
  });
});

describe("an entity type's patterns at save", () => {
  it("must compile within one request's compile budget, the candidate's in place", () => {
    const names = def("first_name", { validation: { pattern: UNICODE } });
    const candidate = def("last_name", { id: undefined, validation: { pattern: "^[\\p{L} '-]+$" } });
    const problems = checkDefinition(candidate, [names], LIMITS);
    expect(problems).toEqual([expect.objectContaining({ field: "validation.pattern", reason: "UNSAFE_PATTERN" })]);
    expect(problems[0]!.description).toContain("PATTERN_MAX_REQUEST_COMPILE_STEPS");
  });

  it("counts a pattern once however many fields share it, and rules' patterns too", () => {
    const siblings = [def("a", { validation: { pattern: UNICODE } }), def("b", { validation: { pattern: UNICODE } })];
    expect(checkDefinition(def("c", { id: undefined, validation: { pattern: UNICODE } }), siblings, LIMITS)).toEqual([]);
    const inRule = def("d", {
      validationRules: [{ name: "r", priority: 1, when: { operator: "AND", conditions: [] }, then: { validation: { pattern: "^\\p{Lu}+$" } } }],
    });
    const problems = checkDefinition(def("e", { id: undefined, validation: { pattern: "^[a-z]+$" } }), [...siblings, inRule], LIMITS);
    expect(problems.map((p) => p.field)).toEqual(["validation.pattern"]);
  });

  it("does not refuse a candidate without a pattern, nor count inactive or deleted siblings", () => {
    const heavy = [def("a", { validation: { pattern: UNICODE } }), def("b", { validation: { pattern: "^\\p{Lu}+$" } })];
    expect(checkDefinition(def("c", { id: undefined }), heavy, LIMITS)).toEqual([]);
    const retired = [def("a", { validation: { pattern: UNICODE }, isActive: false }), def("b", { validation: { pattern: "^\\p{Lu}+$" }, deletedAt: NOW })];
    expect(checkDefinition(def("c", { id: undefined, validation: { pattern: "^\\p{N}+$" } }), retired, LIMITS)).toEqual([]);
  });
});
