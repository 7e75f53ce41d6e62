/** A signed checkpoint's own audit entry, and which entries past a checkpoint are still unsigned. */
import { describe, expect, it } from "vitest";
import { checkpointEntry, isOwnEntryOf, NO_OBJECT_ID, unsignedEntries } from "../../../src/domain/audit/chain/checkpoint-entry.js";

const SIGNED_AT = new Date("2026-03-01T12:00:00.123Z");
const checkpoint = { tenantId: "acme", sequence: 41, hash: "ab".repeat(32), signedAt: SIGNED_AT, keyId: "key-1", signature: "c2lnbmF0dXJl" };

describe("a checkpoint's own audit entry", () => {
  it("is AUDIT_CHECKPOINT_SIGNED by the system, of no object, correlated by the sequence, holding the checkpoint, at its signing time", () => {
    expect(checkpointEntry(checkpoint)).toEqual({
      tenantId: "acme",
      objectId: NO_OBJECT_ID,
      action: "AUDIT_CHECKPOINT_SIGNED",
      actorId: "system",
      result: "SUCCESS",
      correlationId: "checkpoint:41",
      details: { sequence: 41, hash: "ab".repeat(32), keyId: "key-1", signedAt: "2026-03-01T12:00:00.123Z", signature: "c2lnbmF0dXJl" },
      occurredAt: SIGNED_AT,
    });
  });

  it("is recognised by its action and the checkpoint's sequence, not another checkpoint's", () => {
    const own = checkpointEntry(checkpoint);
    expect(isOwnEntryOf(own, 41)).toBe(true);
    expect(isOwnEntryOf(own, 40)).toBe(false);
    expect(isOwnEntryOf({ action: "UPLOAD_COMPLETED", correlationId: "checkpoint:41" }, 41)).toBe(false);
  });
});

describe("unsigned entries past the newest checkpoint", () => {
  it("are the head's sequence without a checkpoint", () => {
    expect(unsignedEntries(7)).toBe(7);
  });

  it("do not count the checkpoint's own entry right after it", () => {
    expect(unsignedEntries(41, { sequence: 40, ownEntryNext: true })).toBe(0);
    expect(unsignedEntries(44, { sequence: 40, ownEntryNext: true })).toBe(3);
  });

  it("count every entry when the one right after the checkpoint is not its own", () => {
    expect(unsignedEntries(41, { sequence: 40, ownEntryNext: false })).toBe(1);
    expect(unsignedEntries(40, { sequence: 40, ownEntryNext: false })).toBe(0);
  });
});
