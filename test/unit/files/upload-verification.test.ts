import { describe, expect, it } from "vitest";
import { findUploadMismatch, md5ReadAtComplete, missingUpload, verifiedDigests } from "../../../src/domain/files/upload-verification.js";
import { settleScan } from "../../../src/domain/files/scan-settlement.js";

const md5 = "0123456789abcdef0123456789abcdef";

describe("verifiedDigests", () => {
  it("keeps the declared SHA-256, lowercased, with the MD5", () => expect(verifiedDigests({ md5 }, "AB".repeat(32))).toEqual({ md5, sha256: "ab".repeat(32) }));
  it("keeps no SHA-256 when none was declared", () => expect(verifiedDigests({ md5 }, undefined)).toEqual({ md5 }));
});

describe("findUploadMismatch", () => {
  it("accepts the declared size without a checksum", () => expect(findUploadMismatch(10, undefined, { size: 10, md5 })).toBeUndefined());
  it("accepts a matching checksum in any case", () => expect(findUploadMismatch(10, md5.toUpperCase(), { size: 10, md5 })).toBeUndefined());
  it("refuses another size first", () => expect(findUploadMismatch(11, "f".repeat(32), { size: 10, md5 })?.reason).toBe("SIZE_MISMATCH"));
  it("refuses another checksum", () => expect(findUploadMismatch(10, "f".repeat(32), { size: 10, md5 })?.reason).toBe("CHECKSUM_MISMATCH"));
  it("accepts a computed SHA-256 equal to the declared one in any case", () =>
    expect(findUploadMismatch(10, undefined, { size: 10, md5, sha256: "ab".repeat(32) }, "AB".repeat(32))).toBeUndefined());
  it("refuses a computed SHA-256 other than the declared one", () =>
    expect(findUploadMismatch(10, undefined, { size: 10, md5, sha256: "ab".repeat(32) }, "cd".repeat(32))?.reason).toBe("CHECKSUM_MISMATCH"));
});

describe("missingUpload", () => {
  const now = new Date("2026-01-01T00:00:10Z");
  it("says the URL expired when it did", () => expect(missingUpload(new Date("2026-01-01T00:00:00Z"), now).reason).toBe("UPLOAD_URL_EXPIRED"));
  it("says nothing was uploaded while the URL is valid", () => expect(missingUpload(new Date("2026-01-01T00:01:00Z"), now).reason).toBe("UPLOAD_MISSING"));
});

describe("settleScan", () => {
  const now = new Date("2026-01-01T00:00:00Z");
  const durations = { tempUploadSeconds: 1, failedUploadSeconds: 7, supersededSeconds: 30, importArtifactSeconds: 90 };
  it("a passed document is READY under its class's policy", () => {
    expect(settleScan("GENERAL_DOCUMENT", true, now, durations)).toMatchObject({ status: "READY", retentionPolicy: "PERMANENT", retentionExpiresAt: null, supersedes: false });
  });
  it("a failed scan is REJECTED for FAILED_UPLOAD_7D", () => {
    expect(settleScan("USER_PROFILE_PHOTO", false, now, durations)).toMatchObject({ status: "REJECTED", retentionPolicy: "FAILED_UPLOAD_7D", retentionExpiresAt: new Date(now.getTime() + 7000), supersedes: false });
  });
  it("a passed photo supersedes the current one", () => {
    expect(settleScan("USER_PROFILE_PHOTO", true, now, durations)).toMatchObject({ status: "READY", supersedes: true, supersededExpiresAt: new Date(now.getTime() + 30_000) });
  });
});

describe("md5ReadAtComplete", () => {
  const none = { etagIsMd5: false, declaredMd5: false, sha256ToCheck: false, inlineScan: false };

  it("leaves the MD5 to the scan only when nothing needs the bytes now (a multipart upload, nothing declared)", () => {
    expect(md5ReadAtComplete(none)).toBe(false);
  });

  it.each(["etagIsMd5", "declaredMd5", "sha256ToCheck", "inlineScan"] as const)("computes it at complete when %s", (fact) => {
    expect(md5ReadAtComplete({ ...none, [fact]: true })).toBe(true);
  });
});

describe("verifiedDigests without an MD5", () => {
  it("keeps only what complete has", () => {
    expect(verifiedDigests({}, undefined)).toEqual({});
    expect(verifiedDigests({}, "AB")).toEqual({ sha256: "ab" });
  });
});
