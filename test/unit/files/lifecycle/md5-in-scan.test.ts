/**
 * A multipart upload with nothing declared: complete does not read the bytes for their MD5 (its
 * ETag is not one), the scan's single read computes it and finishScan keeps it on the object.
 */
import { createHash } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import type { MalwareEngine } from "../../../../src/app/files/lifecycle/deps.js";
import { finishScan } from "../../../../src/app/files/lifecycle/finish-scan.js";
import { scanStoredObject } from "../../../../src/app/files/lifecycle/scan-stored-object.js";
import { verifyAndComplete } from "../../../../src/app/files/lifecycle/verify-and-complete.js";
import { csv, png } from "../../../fixtures/files/index.js";
import { FakeObjects, FakeStorage, lifecyclePorts, pendingRecord } from "./fakes.js";

let objects: FakeObjects;
let storage: FakeStorage;
const request = { actorId: "u1", requestId: "req-1" };
const attempt = { heartbeat: () => undefined };
const md5Of = (bytes: Uint8Array) => createHash("md5").update(bytes).digest("hex");
const streams = () => storage.requests.filter((r) => r === "stream").length;

/** A CSV report stored by a multipart upload (its ETag is no MD5). */
function multipartCsv(overrides = {}) {
  const bytes = csv([["a", "b"], ["1", "2"], ["3", "4"]]);
  const record = pendingRecord({ fileSize: bytes.length, contentType: "text/csv", objectClass: "REPORT", ...overrides });
  objects.put(record);
  storage.objects.set(record.storageKey, bytes);
  storage.multipart.add(record.storageKey);
  return { bytes, record, ref: { tenantId: record.tenantId, objectId: record.id } };
}

/** An engine that reads `limit` bytes at most, as clamd stops at its size limit. */
function engine(limit = Infinity): MalwareEngine {
  const version = async () => ({ engine: "ClamAV", engineVersion: "1.4.3", databaseVersion: 2 });
  return {
    scanner: {
      async scan(bytes) {
        let seen = 0;
        for await (const chunk of bytes) {
          seen += chunk.length;
          if (seen >= limit) return { verdict: "too-large" };
        }
        return { verdict: "clean" };
      },
      version,
      ping: async () => undefined,
      reload: async () => undefined,
    },
    version,
    unavailable: () => undefined,
  };
}

beforeEach(() => {
  objects = new FakeObjects();
  storage = new FakeStorage();
});

describe("complete of a multipart upload", () => {
  it("with nothing declared, reads no byte beyond the first: SCANNING without an MD5", async () => {
    const { ref, record } = multipartCsv();
    const outcome = await verifyAndComplete(lifecyclePorts(objects, storage), ref, request);
    expect(outcome.state.status).toBe("SCANNING");
    expect(storage.requests).toEqual(["readPrefix"]);
    expect((await objects.findRecord(ref.tenantId, record.id))?.checksum).toBeUndefined();
  });

  it("with an MD5 declared at complete, reads the bytes and checks it", async () => {
    const { ref, bytes } = multipartCsv();
    await verifyAndComplete(lifecyclePorts(objects, storage), ref, { ...request, checksum: md5Of(bytes) });
    expect(streams()).toBe(1);
    expect((await objects.findRecord(ref.tenantId, ref.objectId))?.checksum).toBe(md5Of(bytes));
  });

  it("with a wrong MD5 declared, refuses and removes the file", async () => {
    const { ref } = multipartCsv();
    const outcome = await verifyAndComplete(lifecyclePorts(objects, storage), ref, { ...request, checksum: "0".repeat(32) });
    expect(outcome.refusal?.reason).toBe("CHECKSUM_MISMATCH");
    expect(outcome.state.deleted).toBe(true);
  });

  it("with a SHA-256 declared at initiate, reads the bytes once for both digests", async () => {
    const { ref, record, bytes } = multipartCsv();
    objects.sessions.push({ objectId: record.id, contentSha256: createHash("sha256").update(bytes).digest("hex") } as never);
    await verifyAndComplete(lifecyclePorts(objects, storage), ref, request);
    expect(streams()).toBe(1);
    expect((await objects.findRecord(ref.tenantId, ref.objectId))?.checksum).toBe(md5Of(bytes));
  });

  it("scanned inside complete (a small image), keeps the MD5 of that read", async () => {
    const bytes = png(8, 8);
    const record = pendingRecord({ fileSize: bytes.length });
    objects.put(record);
    storage.objects.set(record.storageKey, bytes);
    storage.multipart.add(record.storageKey);
    const outcome = await verifyAndComplete(lifecyclePorts(objects, storage), { tenantId: record.tenantId, objectId: record.id }, request);
    expect(outcome.state.status).toBe("READY");
    expect(outcome.object?.checksum).toBe(md5Of(bytes));
  });
});

describe("the scan of an object complete left without an MD5", () => {
  it("computes the MD5 in its one read, and finishScan keeps it with the verdict (run again, the same)", async () => {
    const { ref, bytes } = multipartCsv();
    const ports = { ...lifecyclePorts(objects, storage), malware: engine() };
    await verifyAndComplete(ports, ref, request);
    storage.requests.length = 0;
    const scan = await scanStoredObject(ports, ref, attempt);
    expect(scan?.md5).toBe(md5Of(bytes));
    expect(streams()).toBe(1);
    await finishScan(ports, ref, scan!, { correlationId: "c" });
    await finishScan(ports, ref, scan!, { correlationId: "c" });
    const object = await objects.findRecord(ref.tenantId, ref.objectId);
    expect(object).toMatchObject({ status: "READY", checksum: md5Of(bytes) });
    expect(object?.scanResult).not.toHaveProperty("md5");
  });

  it("without an engine, from the checks' stream", async () => {
    const { ref, bytes } = multipartCsv({ status: "SCANNING" });
    expect((await scanStoredObject(lifecyclePorts(objects, storage), ref, attempt))?.md5).toBe(md5Of(bytes));
    expect(streams()).toBe(1);
  });

  it("reads for it after the scan when the scan read no stream (refused on its first bytes, no engine)", async () => {
    const { ref, bytes } = multipartCsv({ status: "SCANNING", contentType: "image/webp", objectClass: "USER_PROFILE_PHOTO" });
    const scan = await scanStoredObject(lifecyclePorts(objects, storage), ref, attempt);
    expect(scan).toMatchObject({ passed: false, md5: md5Of(bytes) });
    expect(streams()).toBe(1);
  });

  it("reads for it after the scan when the engine stopped at its limit and the checks read no stream", async () => {
    const { ref, bytes } = multipartCsv({ status: "SCANNING", contentType: "image/webp", objectClass: "USER_PROFILE_PHOTO" });
    storage.stream = async function* (key: string) {
      storage.requests.push("stream");
      const all = storage.objects.get(key)!;
      for (let at = 0; at < all.length; at += 4) yield all.subarray(at, at + 4);
    };
    const scan = await scanStoredObject({ ...lifecyclePorts(objects, storage), malware: engine(4) }, ref, attempt);
    expect(scan?.md5).toBe(md5Of(bytes));
    expect(streams()).toBe(2);
  });

  it("leaves an MD5 the object has alone and computes none", async () => {
    const { ref } = multipartCsv({ status: "SCANNING", checksum: "f".repeat(32) });
    const scan = await scanStoredObject(lifecyclePorts(objects, storage), ref, attempt);
    expect(scan).not.toHaveProperty("md5");
  });
});
