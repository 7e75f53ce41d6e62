import { describe, expect, it } from "vitest";
import { keysetAfter, keysetOrderBy } from "../../../src/adapters/postgres/keyset.js";

describe("keysetAfter", () => {
  const after = { at: new Date("2026-01-01T00:00:00Z"), id: "00000000-0000-4000-8000-000000000001" };

  it("is empty on the first page", () => {
    expect(keysetAfter("createdAt", "desc", undefined)).toEqual({});
  });

  it("goes below the position for a newest-first order and above it for an oldest-first one", () => {
    expect(keysetAfter("createdAt", "desc", after)).toEqual({
      $or: [{ createdAt: { $lt: after.at } }, { createdAt: after.at, id: { $lt: after.id } }],
    });
    expect(keysetAfter("occurredAt", "asc", after)).toEqual({
      $or: [{ occurredAt: { $gt: after.at } }, { occurredAt: after.at, id: { $gt: after.id } }],
    });
    expect(keysetOrderBy("occurredAt", "asc")).toEqual({ occurredAt: "asc", id: "asc" });
  });
});
