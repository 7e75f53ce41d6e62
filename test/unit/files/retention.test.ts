import { describe, expect, it } from "vitest";
import { isExpired, retentionDeadline } from "../../../src/domain/files/retention.js";

const now = new Date("2026-01-10T00:00:00Z");
const past = new Date("2026-01-09T00:00:00Z");
const future = new Date("2026-01-11T00:00:00Z");
const due = { status: "READY", retentionPolicy: "FAILED_UPLOAD_7D" as const, retentionExpiresAt: past, legalHold: false, deleted: false };

describe("isExpired, the one expiry rule", () => {
  it("expires a row whose deadline passed", () => expect(isExpired(due, now)).toBe(true));
  it("expires at the deadline itself", () => expect(isExpired({ ...due, retentionExpiresAt: now }, now)).toBe(true));
  it("keeps a row before its deadline", () => expect(isExpired({ ...due, retentionExpiresAt: future }, now)).toBe(false));
  it("keeps a row without a deadline", () => expect(isExpired({ ...due, retentionExpiresAt: null }, now)).toBe(false));
  it("keeps a held row", () => expect(isExpired({ ...due, legalHold: true }, now)).toBe(false));
  it("keeps a deleted row deleted once", () => expect(isExpired({ ...due, deleted: true }, now)).toBe(false));
  it("never expires permanent policies", () => {
    for (const retentionPolicy of ["PERMANENT", "COMPLIANCE_ARCHIVE", "LEGAL_HOLD"] as const) expect(isExpired({ ...due, retentionPolicy }, now)).toBe(false);
  });
  it("never treats a completed upload waiting for its scan as abandoned", () => {
    expect(isExpired({ ...due, status: "SCANNING", retentionPolicy: "TEMP_UPLOAD_24H" }, now)).toBe(false);
  });
  it("expires an abandoned pending upload", () => {
    expect(isExpired({ ...due, status: "PENDING_UPLOAD", retentionPolicy: "TEMP_UPLOAD_24H" }, now)).toBe(true);
  });
});

describe("retentionDeadline", () => {
  const durations = { tempUploadSeconds: 10, failedUploadSeconds: 20, supersededSeconds: 30, importArtifactSeconds: 40 };
  it("adds the policy's duration", () => expect(retentionDeadline("FAILED_UPLOAD_7D", now, durations)).toEqual(new Date(now.getTime() + 20_000)));
  it("has none for permanent policies", () => expect(retentionDeadline("PERMANENT", now, durations)).toBeUndefined());
});
