import { describe, expect, it } from "vitest";
import { MAX_JSON_VALUE_SIZE, MAX_TEXT_LENGTH_BY_TYPE, valueSizeProblem } from "../../../src/domain/customfields/value-size.js";

describe("value size by field type", () => {
  it("accepts text up to its type's bound and refuses one character more", () => {
    for (const [type, max] of Object.entries(MAX_TEXT_LENGTH_BY_TYPE)) {
      const fieldType = type as keyof typeof MAX_TEXT_LENGTH_BY_TYPE;
      expect(valueSizeProblem(fieldType, "1".repeat(max))).toBeUndefined();
      expect(valueSizeProblem(fieldType, "1".repeat(max + 1))).toBe(`must be at most ${max} characters long`);
    }
  });

  it("bounds a JSON value by its strings, keys and nodes, however it is nested", () => {
    expect(valueSizeProblem("JSON", { note: "x".repeat(MAX_JSON_VALUE_SIZE - 10) })).toBeUndefined();
    expect(valueSizeProblem("JSON", { note: "x".repeat(MAX_JSON_VALUE_SIZE) })).toBeDefined();
    expect(valueSizeProblem("JSON", Array.from({ length: MAX_JSON_VALUE_SIZE }, () => 0))).toBeDefined();
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_VALUE_SIZE; i++) deep = [deep];
    expect(valueSizeProblem("JSON", deep)).toBeDefined();
  });

  it("leaves computed values and non-text values to their own checks", () => {
    expect(valueSizeProblem("COMPUTED", "x".repeat(100_000))).toBeUndefined();
    expect(valueSizeProblem("NUMBER", 1e300)).toBeUndefined();
  });
});
