import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/domain/errors.js";
import { checkPattern, DEFAULT_PATTERN_LIMITS, matchesPattern, MAX_PATTERN_LENGTH } from "../../../src/domain/customfields/pattern.js";

function refusal(pattern: string): AppError {
  try {
    checkPattern(pattern);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`pattern accepted: ${pattern}`);
}

describe("patterns", () => {
  it("matches like RegExp.test (unanchored unless anchored)", () => {
    expect(matchesPattern("^[A-Z]{2}\\d{4}$", "DE1234")).toBe(true);
    expect(matchesPattern("^[A-Z]{2}\\d{4}$", "DE12345")).toBe(false);
    expect(matchesPattern("b", "abc")).toBe(true);
    expect(matchesPattern("^\\p{L}+$", "héllo")).toBe(true);
  });

  it("runs catastrophic-backtracking patterns in linear time", () => {
    const hostile = "a".repeat(30) + "!";
    for (const pattern of ["(a+)+$", "^(a|a)*$", "^(a|aa)+$", "^(\\w+\\s?)*$"]) {
      const started = performance.now();
      expect(matchesPattern(pattern, hostile)).toBe(false);
      expect(performance.now() - started).toBeLessThan(500);
    }
    const long = "a".repeat(100_000) + "!";
    const started = performance.now();
    const unbounded = { tenant: "", limits: { ...DEFAULT_PATTERN_LIMITS, maxMatchSteps: Number.MAX_SAFE_INTEGER } };
    expect(matchesPattern("(a+)+$", long, unbounded)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it.each([
    ["(a)\\1", "backreference"],
    ["(?=a)b", "lookahead"],
    ["(?!a)b", "negative lookahead"],
    ["(?<=a)b", "lookbehind"],
    ["(x{1000}){1000}", "oversized program"],
    ["[", "syntax error"],
  ])("refuses %s (%s) with UNSAFE_PATTERN naming it", (pattern) => {
    const error = refusal(pattern);
    expect(error.reason).toBe("UNSAFE_PATTERN");
    expect(error.message).toContain(`pattern "${pattern}"`);
  });

  it("refuses a pattern longer than the limit", () => {
    const error = refusal("a".repeat(MAX_PATTERN_LENGTH + 1));
    expect(error.reason).toBe("UNSAFE_PATTERN");
    expect(error.message).toContain(`longer than ${MAX_PATTERN_LENGTH}`);
    expect(() => checkPattern("a".repeat(MAX_PATTERN_LENGTH))).not.toThrow();
  });

  it("keeps working after the cache has evicted entries", () => {
    for (let i = 0; i < 700; i++) expect(matchesPattern(`^x${i}$`, `x${i}`)).toBe(true);
    expect(matchesPattern("^x1$", "x1")).toBe(true);
  });
});
