import { describe, expect, it } from "vitest";
import { definitionsVersion } from "../../../src/domain/customfields/definitions-version.js";

const a = { id: "def_a", version: 1 };
const b = { id: "def_b", version: 3 };

describe("definitionsVersion", () => {
  it("does not depend on the order the store answers in", () => {
    expect(definitionsVersion([a, b])).toBe(definitionsVersion([b, a]));
  });

  it("changes with an update, a create and a delete, also when a delete and a create keep the count", () => {
    const seen = new Set([
      definitionsVersion([a, b]),
      definitionsVersion([a, { ...b, version: 4 }]),
      definitionsVersion([a, b, { id: "def_c", version: 1 }]),
      definitionsVersion([a]),
      definitionsVersion([a, { id: "def_c", version: 3 }]),
      definitionsVersion([]),
    ]);
    expect(seen.size).toBe(6);
  });

  it("counts the definitions, so an id holding the separators does not collide with several", () => {
    expect(definitionsVersion([{ id: "x:1;y", version: 2 }])).not.toBe(definitionsVersion([{ id: "x", version: 1 }, { id: "y", version: 2 }]));
  });
});
