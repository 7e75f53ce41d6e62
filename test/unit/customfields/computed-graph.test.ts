import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/domain/errors.js";
import { computedOrder, findComputedCycle } from "../../../src/domain/customfields/computed-graph.js";
import { def } from "./fixtures.js";

const computed = (key: string, formula: string) => def(key, { fieldType: "COMPUTED", computedFormula: formula });

describe("computed field order", () => {
  it("puts dependencies first", () => {
    const defs = [
      computed("total", "subtotal + tax"),
      computed("tax", "subtotal * 0.2"),
      def("price", { fieldType: "NUMBER" }),
      computed("subtotal", "price * qty"),
    ];
    expect(computedOrder(defs).map((d) => d.fieldKey)).toEqual(["subtotal", "tax", "total"]);
  });

  it("counts a computed default strategy as computed and ignores plain fields", () => {
    const defs = [
      def("label", { fieldType: "STRING", defaultStrategy: "COMPUTED", computedFormula: "uppercase(code)" }),
      def("code", { defaultStrategy: "COMPUTED", computedFormula: "'abc'" }),
      def("plain", { computedFormula: "label" }),
    ];
    expect(computedOrder(defs).map((d) => d.fieldKey)).toEqual(["code", "label"]);
  });

  it("names a two-field cycle", () => {
    const defs = [computed("a", "b + 1"), computed("b", "a + 1")];
    expect(() => computedOrder(defs)).toThrow(AppError);
    try {
      computedOrder(defs);
    } catch (error) {
      expect((error as AppError).reason).toBe("FORMULA_CYCLE");
      expect((error as AppError).message).toBe("computed fields form a cycle: a -> b -> a");
    }
  });

  it("names a self reference and a longer loop", () => {
    expect(findComputedCycle([computed("a", "a * 2")])).toEqual(["a", "a"]);
    const loop = [computed("x", "1"), computed("a", "b + x"), computed("b", "c"), computed("c", "a")];
    expect(findComputedCycle(loop)).toEqual(["a", "b", "c", "a"]);
    expect(findComputedCycle(loop, "x")).toBeUndefined();
    expect(findComputedCycle(loop, "c")).toEqual(["c", "a", "b", "c"]);
  });

  it("treats an invalid formula as having no dependencies", () => {
    expect(computedOrder([computed("a", "evaluate('b')"), computed("b", "a")]).map((d) => d.fieldKey)).toEqual([
      "a",
      "b",
    ]);
  });
});
