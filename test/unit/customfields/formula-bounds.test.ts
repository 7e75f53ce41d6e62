/**
 * Formula amplification (issue #11): `+` concatenated text without a cap and computed fields read
 * each other, so 16 KB of input became a 201 MB value (about 1.9 GB of memory) in one resolve, and
 * constants alone reached 195 M characters. Every produced text and the work of one resolve are
 * now bounded, and constant growth is refused when the definition is saved.
 */
import { describe, expect, it } from "vitest";
import { checkDefinition } from "../../../src/domain/customfields/definition-rules.js";
import type { FieldDefinition } from "../../../src/domain/customfields/definition.js";
import { DEFAULT_FORMULA_LIMITS } from "../../../src/domain/customfields/formula-budget.js";
import { DEFAULT_CUSTOM_FIELD_LIMITS } from "../../../src/domain/customfields/limits.js";
import { resolveForCreate } from "../../../src/domain/customfields/values.js";
import { MAX_VALUE_TEXT_LENGTH } from "../../../src/domain/customfields/value-size.js";
import { AppError } from "../../../src/domain/errors.js";
import { def, NOW } from "./fixtures.js";

const MB = 1024 * 1024;

/** `a + a + ... + a`: 30 terms, within the formula nesting limit (32). */
function repeated(name: string): string {
  return Array.from({ length: 30 }, () => name).join(" + ");
}

function computed(fieldKey: string, computedFormula: string, displayOrder = 1): FieldDefinition {
  return def(fieldKey, { fieldType: "COMPUTED", computedFormula, displayOrder });
}

function resolveError(defs: FieldDefinition[], values: Record<string, unknown>): AppError {
  try {
    resolveForCreate(defs, values, {}, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("resolved without error");
}

describe("formula bounds", () => {
  it("refuses the amplification chain with FORMULA_LIMIT_EXCEEDED on its field, in bounded memory", () => {
    const defs = [
      def("s", { displayOrder: 0 }),
      computed("a", repeated("s"), 1),
      computed("b", repeated("a"), 2),
      computed("c", repeated("b"), 3),
    ];
    // The longest text a string field accepts (issue #11 measured with 16 KB, refused today).
    const input = "x".repeat(MAX_VALUE_TEXT_LENGTH);
    const before = process.memoryUsage();
    const error = resolveError(defs, { s: input });
    const after = process.memoryUsage();
    expect(error.reason).toBe("FORMULA_LIMIT_EXCEEDED");
    expect(error.violations).toEqual([
      { field: "customFields.a", description: expect.stringContaining(`at most ${DEFAULT_FORMULA_LIMITS.maxTextLength}`) as string },
    ]);
    // Before: a 201 MB value; now no text beyond the cap is ever built.
    expect(after.heapUsed - before.heapUsed).toBeLessThan(32 * MB);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(32 * MB);
  });

  it("caps every intermediate text, not only the final one", () => {
    const defs = [def("s", { displayOrder: 0 }), computed("short", "string(len) + uppercase(s + s) + 'x'", 1)];
    const error = resolveError(defs, { s: "y".repeat(6000) });
    expect(error.reason).toBe("FORMULA_LIMIT_EXCEEDED");
    expect(error.violations[0].field).toBe("customFields.short");
  });

  it("keeps values within the limits as they were", () => {
    const defs = [def("s", { displayOrder: 0 }), computed("a", "s + s", 1), computed("b", "uppercase(a)", 2)];
    expect(resolveForCreate(defs, { s: "ab" }, {}, NOW)).toEqual({ s: "ab", a: "abab", b: "ABAB" });
  });

  it("bounds the work of all computed fields of one resolve together", () => {
    const defs = Array.from({ length: 30 }, (_, i) => computed(`f_${"abcdefghijklmnopqrstuvwxyzab".slice(0, (i % 26) + 1)}_${"z".repeat(Math.floor(i / 26) + 1)}`, "1 + 2 * 3 - 4", i));
    const limits = { ...DEFAULT_CUSTOM_FIELD_LIMITS, formulas: { ...DEFAULT_FORMULA_LIMITS, maxSteps: 100 } };
    let caught: unknown;
    try {
      resolveForCreate(defs, {}, {}, NOW, limits);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).reason).toBe("FORMULA_LIMIT_EXCEEDED");
    expect((caught as AppError).message).toContain("more than 100 evaluation steps");
    expect(() => resolveForCreate(defs, {}, {}, NOW)).not.toThrow();
  });

  it("refuses at save a formula whose constants alone grow past the text limit", () => {
    const constant = `'${"x".repeat(900)}'`;
    const siblings = [computed("a", constant, 1), computed("b", repeated("a"), 2)];
    const candidate = computed("c", repeated("b"), 3);
    // Before: accepted, and c held 900 * 30 * 30 (810,000) characters on every create; ten such fields reach 10^17.
    expect(checkDefinition(candidate, siblings)).toEqual([
      { field: "computedFormula", reason: "FORMULA_LIMIT_EXCEEDED", description: expect.stringContaining('computed field "b" would produce text of at least') as string },
    ]);
    expect(checkDefinition(computed("c", "b + '!'", 3), [computed("a", "'x'", 1), computed("b", "a + a", 2)])).toEqual([]);
  });

  it("refuses at save a change that makes a field reading it grow too large", () => {
    const siblings = [computed("b", repeated("a"), 2)];
    expect(checkDefinition(computed("a", "'x'", 1), siblings)).toEqual([]);
    const grown = checkDefinition(computed("a", `'${"x".repeat(900)}'`, 1), siblings);
    expect(grown).toMatchObject([{ field: "computedFormula", reason: "FORMULA_LIMIT_EXCEEDED" }]);
  });
});
