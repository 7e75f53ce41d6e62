import { describe, expect, it } from "vitest";
import { removalBlocked } from "../../../src/domain/files/legal-hold.js";
import { isExpired } from "../../../src/domain/files/retention.js";

describe("a legal hold blocks every removal", () => {
  it("blocks the removal of a held object", () => expect(removalBlocked({ legalHold: true })).toBe(true));
  it("lets an object without a hold go", () => expect(removalBlocked({ legalHold: false })).toBe(false));
  it("is the rule expiry applies", () => {
    const due = { status: "READY", retentionPolicy: "SUPERSEDED_30D" as const, retentionExpiresAt: new Date(0), deleted: false };
    const now = new Date(1000);
    expect([isExpired({ ...due, legalHold: true }, now), isExpired({ ...due, legalHold: false }, now)]).toEqual([false, true]);
  });
});
