import { describe, expect, it } from "vitest";
import { isOlderThan, operatorStatusOf, phaseOf, type LifecycleState } from "../../../src/domain/files/lifecycle-state.js";

const at = (status: LifecycleState["status"], extra: Partial<LifecycleState> = {}): LifecycleState => ({ exists: true, deleted: false, held: false, status, ...extra });

describe("phaseOf", () => {
  it("maps statuses to phases", () => {
    expect(phaseOf(at("PENDING_UPLOAD"))).toBe("PENDING");
    expect(phaseOf(at("SCANNING"))).toBe("SCANNING");
    expect(phaseOf(at("READY"))).toBe("SETTLED");
    expect(phaseOf(at("REJECTED"))).toBe("SETTLED");
  });
  it("a deleted or missing row is gone, whatever its status", () => {
    expect(phaseOf(at("SCANNING", { deleted: true }))).toBe("GONE");
    expect(phaseOf({ exists: false, deleted: false, held: false })).toBe("GONE");
  });
});

describe("isOlderThan: phases only move forward", () => {
  it("a PENDING read after SCANNING is known is older", () => expect(isOlderThan(at("PENDING_UPLOAD"), at("SCANNING"))).toBe(true));
  it("a SCANNING read after READY is known is older", () => expect(isOlderThan(at("SCANNING"), at("READY"))).toBe(true));
  it("the same phase is not older (retention details may have changed)", () => expect(isOlderThan(at("READY", { held: true }), at("READY"))).toBe(false));
  it("gone is never older", () => expect(isOlderThan(at("READY", { deleted: true }), at("READY"))).toBe(false));
});

describe("operatorStatusOf: the status operators filter runs by follows the object to its end", () => {
  it("is the row's status while the object lives", () => {
    expect(operatorStatusOf(at("READY", { held: true }))).toBe("READY");
    expect(operatorStatusOf(at("PENDING_UPLOAD"))).toBe("PENDING_UPLOAD");
  });
  it.each([
    ["USER_DELETED", "DELETED"],
    ["EXPIRED", "EXPIRED"],
    ["CHECKSUM_MISMATCH", "REMOVED_AFTER_MISMATCH"],
  ] as const)("a row deleted for %s shows %s, whatever its last status", (deleteReason, shown) => {
    expect(operatorStatusOf(at("READY", { deleted: true, deleteReason }))).toBe(shown);
    expect(operatorStatusOf(at("PENDING_UPLOAD", { deleted: true, deleteReason }))).toBe(shown);
  });
  it("a row that is gone without a reason shows DELETED", () => expect(operatorStatusOf({ exists: false, deleted: false, held: false })).toBe("DELETED"));
});
