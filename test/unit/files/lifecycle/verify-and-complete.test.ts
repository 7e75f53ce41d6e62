import { createHash } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { verifyAndComplete } from "../../../../src/app/files/lifecycle/verify-and-complete.js";
import { csv, exe, png } from "../../../fixtures/files/index.js";
import { FakeObjects, FakeStorage, lifecyclePorts, pendingRecord } from "./fakes.js";

let objects: FakeObjects;
let storage: FakeStorage;
const request = { actorId: "u1", requestId: "req-1" };

function stored(bytes: Uint8Array, overrides = {}) {
  const record = pendingRecord({ fileSize: bytes.length, ...overrides });
  objects.put(record);
  storage.objects.set(record.storageKey, bytes);
  return { record, ref: { tenantId: record.tenantId, objectId: record.id } };
}

beforeEach(() => {
  objects = new FakeObjects();
  storage = new FakeStorage();
});

describe("verifyAndComplete", () => {
  it("scans a small PNG inside complete from one read and answers READY", async () => {
    const { ref, record } = stored(png(8, 8));
    const outcome = await verifyAndComplete(lifecyclePorts(objects, storage), ref, request);
    expect(outcome.state.status).toBe("READY");
    expect(outcome.object?.status).toBe("READY");
    expect(storage.requests).toEqual(["open"]);
    expect(objects.actions(record.id)).toEqual(["UPLOAD_COMPLETED", "SCAN_PASSED"]);
  });

  it("answers REJECTED for an executable declared as PNG", async () => {
    const { ref } = stored(exe());
    expect((await verifyAndComplete(lifecyclePorts(objects, storage), ref, request)).state.status).toBe("REJECTED");
  });

  it("leaves a streaming type SCANNING for the scan activity", async () => {
    const { ref } = stored(csv([["a"], ["1"]]), { contentType: "text/csv", objectClass: "REPORT" });
    expect((await verifyAndComplete(lifecyclePorts(objects, storage), ref, request)).state.status).toBe("SCANNING");
  });

  it("run again after it succeeded (its answer was lost), answers the persisted state and writes nothing twice", async () => {
    const { ref, record } = stored(png(8, 8));
    const ports = lifecyclePorts(objects, storage);
    await verifyAndComplete(ports, ref, request);
    const again = await verifyAndComplete(ports, ref, request);
    expect(again.refusal).toBeUndefined();
    expect(again.state.status).toBe("READY");
    expect(objects.actions(record.id)).toEqual(["UPLOAD_COMPLETED", "SCAN_PASSED"]);
  });

  it("keeps the SHA-256 declared at initiate (storage checked it on the PUT) on the object and in UPLOAD_COMPLETED", async () => {
    const bytes = png(8, 8);
    const { ref, record } = stored(bytes);
    const declared = createHash("sha256").update(bytes).digest("hex");
    objects.sessions.push({ objectId: record.id, contentSha256: declared.toUpperCase() } as never);
    await verifyAndComplete(lifecyclePorts(objects, storage), ref, request);
    expect((await objects.findRecord(ref.tenantId, record.id))?.contentSha256).toBe(declared);
    expect(objects.auditLog.find((a) => a.action === "UPLOAD_COMPLETED")?.details).toMatchObject({ contentSha256: declared });
  });

  it("refuses a wrong checksum and removes the file", async () => {
    const { ref, record } = stored(png(8, 8));
    const outcome = await verifyAndComplete(lifecyclePorts(objects, storage), ref, { ...request, checksum: "0".repeat(32) });
    expect(outcome.refusal?.reason).toBe("CHECKSUM_MISMATCH");
    expect(outcome.state.deleted).toBe(true);
    expect(storage.objects.has(record.storageKey)).toBe(false);
  });

  it("run again after a refusal that removed the file, answers the same refusal", async () => {
    const { ref, record } = stored(png(8, 8));
    const ports = lifecyclePorts(objects, storage);
    await verifyAndComplete(ports, ref, { ...request, checksum: "0".repeat(32) });
    const again = await verifyAndComplete(ports, ref, { ...request, checksum: "0".repeat(32) });
    expect(again.refusal?.reason).toBe("CHECKSUM_MISMATCH");
    expect(objects.actions(record.id)).toEqual(["UPLOAD_FAILED"]);
  });

  it("refuses a wrong checksum under a legal hold but keeps the file and the pending object", async () => {
    const { ref, record } = stored(png(8, 8), { legalHold: { reason: "r", placedBy: "u", placedAt: "x" } });
    const outcome = await verifyAndComplete(lifecyclePorts(objects, storage), ref, { ...request, checksum: "0".repeat(32) });
    expect(outcome.refusal?.reason).toBe("CHECKSUM_MISMATCH");
    expect(outcome.state).toMatchObject({ deleted: false, status: "PENDING_UPLOAD", held: true });
    expect(storage.objects.has(record.storageKey)).toBe(true);
    expect(objects.actions(record.id)).toEqual(["UPLOAD_FAILED"]);
    await verifyAndComplete(lifecyclePorts(objects, storage), ref, { ...request, checksum: "0".repeat(32) });
    expect(objects.actions(record.id)).toEqual(["UPLOAD_FAILED"]);
  });

  it("accepts the right checksum", async () => {
    const bytes = png(8, 8);
    const { ref } = stored(bytes);
    const md5 = createHash("md5").update(bytes).digest("hex");
    expect((await verifyAndComplete(lifecyclePorts(objects, storage), ref, { ...request, checksum: md5 })).state.status).toBe("READY");
  });

  it("mirrors a hold placed before the bytes existed onto the bucket object", async () => {
    const { ref, record } = stored(png(8, 8), { legalHold: { reason: "r", placedBy: "u", placedAt: "x" } });
    await verifyAndComplete(lifecyclePorts(objects, storage), ref, request);
    expect(storage.holds.has(record.storageKey)).toBe(true);
  });

  it("refuses with UPLOAD_MISSING while nothing is stored, and the object stays pending", async () => {
    const record = pendingRecord({ fileSize: 10 });
    objects.put(record);
    const outcome = await verifyAndComplete(lifecyclePorts(objects, storage), { tenantId: record.tenantId, objectId: record.id }, request);
    expect(outcome.refusal?.reason).toBe("UPLOAD_MISSING");
    expect(outcome.state.status).toBe("PENDING_UPLOAD");
  });

  it("answers not found for a deleted object", async () => {
    const { ref } = stored(png(8, 8), { deleted: true });
    expect((await verifyAndComplete(lifecyclePorts(objects, storage), ref, request)).refusal?.reason).toBe("OBJECT_NOT_FOUND");
  });
});
