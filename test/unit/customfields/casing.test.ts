import { describe, expect, it } from "vitest";
import {
  defaultStrategyToApi,
  fieldTypeToApi,
  parseDefaultStrategy,
  parseFieldType,
  toKebab,
} from "../../../src/domain/customfields/casing.js";

describe("casing", () => {
  it("renders storage enums as lowercase kebab", () => {
    expect(defaultStrategyToApi("RULE_BASED")).toBe("rule-based");
    expect(fieldTypeToApi("COMPUTED")).toBe("computed");
    expect(toKebab("A_B_C")).toBe("a-b-c");
  });

  it("accepts both the kebab and the UPPER_SNAKE form", () => {
    expect(parseDefaultStrategy("rule-based")).toEqual({ ok: true, value: "RULE_BASED" });
    expect(parseDefaultStrategy("RULE_BASED")).toEqual({ ok: true, value: "RULE_BASED" });
    expect(parseFieldType("select")).toEqual({ ok: true, value: "SELECT" });
    expect(parseFieldType("JSON")).toEqual({ ok: true, value: "JSON" });
  });

  it.each(["Rule-Based", "rule_based", "RULE-BASED", "", " static", "unknown", 3, null])(
    "refuses %j as a strategy with a violation",
    (input) => {
      const parsed = parseDefaultStrategy(input, "body.defaultStrategy");
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.violation.field).toBe("body.defaultStrategy");
        expect(parsed.violation.description).toContain("rule-based");
      }
    },
  );

  it("refuses mixed-case field types", () => {
    expect(parseFieldType("String").ok).toBe(false);
  });
});
