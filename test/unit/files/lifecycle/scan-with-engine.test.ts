/**
 * The content checks and the malware engine over one read of the object (scan-object-bytes.ts),
 * in complete and in the scan activity. The engine here is an in-memory stand-in that reads every
 * byte it is given; the real clamd is test/integration/malware-lifecycle.test.ts's.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { MalwareEngine } from "../../../../src/app/files/lifecycle/deps.js";
import { scanStoredObject } from "../../../../src/app/files/lifecycle/scan-stored-object.js";
import { verifyAndComplete } from "../../../../src/app/files/lifecycle/verify-and-complete.js";
import { MalwareScannerError, type MalwareVerdict } from "../../../../src/domain/files/malware/malware-verdict.js";
import { csv, pdf } from "../../../fixtures/files/index.js";
import { FakeObjects, FakeStorage, lifecyclePorts, pendingRecord } from "./fakes.js";

let objects: FakeObjects;
let storage: FakeStorage;

/** Reads the stream to its end and answers `verdict`, or fails before reading like an unreachable clamd. */
function engine(answer: MalwareVerdict | "down") {
  const seen = { bytes: 0, unavailable: [] as unknown[] };
  const malware: MalwareEngine = {
    scanner: {
      async scan(bytes) {
        if (answer === "down") throw new MalwareScannerError("unreachable", "cannot connect to clamd at tcp://127.0.0.1:1: ECONNREFUSED");
        for await (const chunk of bytes) seen.bytes += chunk.length;
        return answer;
      },
      version: async () => ({ engine: "ClamAV", engineVersion: "1.4.3", databaseVersion: 2 }),
      ping: async () => undefined,
      reload: async () => undefined,
    },
    version: async () => ({ engine: "ClamAV", engineVersion: "1.4.3", databaseVersion: 2 }),
    unavailable: (_ref, error) => seen.unavailable.push(error),
  };
  return { malware, seen };
}

function stored(bytes: Uint8Array, overrides = {}) {
  const record = pendingRecord({ fileSize: bytes.length, contentType: "application/pdf", objectClass: "STATEMENT", ...overrides });
  objects.put(record);
  storage.objects.set(record.storageKey, bytes);
  return { record, ref: { tenantId: record.tenantId, objectId: record.id } };
}

const request = { actorId: "u1", requestId: "req-1" };
const EIGHT_MIB_PDF = () => pdf({ streams: [{ dictionary: "", data: new Uint8Array(8 * 1024 * 1024).fill(0x20) }] });

beforeEach(() => {
  objects = new FakeObjects();
  storage = new FakeStorage();
});

describe("complete scans a PDF with the engine from one read of its bytes", () => {
  it("an 8 MiB PDF: one GET, its head verified, its stream shared by the checks and the engine, its tail kept", async () => {
    const bytes = EIGHT_MIB_PDF();
    const { ref } = stored(bytes);
    const { malware, seen } = engine({ verdict: "clean" });
    const outcome = await verifyAndComplete({ ...lifecyclePorts(objects, storage), inlineScanMaxBytes: 16 * 1024 * 1024, malware }, ref, request);
    expect(outcome.state.status).toBe("READY");
    expect(storage.requests).toEqual(["open"]);
    expect(storage.cancelled).toEqual([]);
    expect(seen.bytes).toBe(bytes.length);
    expect(outcome.object?.scanResult?.malware).toEqual({ verdict: "clean", engine: "ClamAV", engineVersion: "1.4.3", databaseVersion: 2 });
  });

  it("a stored size other than the declared one: refused, and the opened read ended", async () => {
    const bytes = EIGHT_MIB_PDF();
    const { ref, record } = stored(bytes, { fileSize: bytes.length + 1 });
    const { malware } = engine({ verdict: "clean" });
    const outcome = await verifyAndComplete({ ...lifecyclePorts(objects, storage), inlineScanMaxBytes: 16 * 1024 * 1024, malware }, ref, request);
    expect(outcome.refusal?.reason).toBe("SIZE_MISMATCH");
    expect(storage.cancelled).toEqual([record.storageKey]);
  });

  it("a detection: REJECTED, the engine's check failed with the signature", async () => {
    const { ref, record } = stored(pdf());
    const { malware } = engine({ verdict: "infected", signature: "Files-Test.EICAR.UNOFFICIAL" });
    const outcome = await verifyAndComplete({ ...lifecyclePorts(objects, storage), malware }, ref, request);
    expect(outcome.state.status).toBe("REJECTED");
    expect(outcome.object?.scanResult?.checks.at(-1)).toEqual({
      name: "malware_scan",
      passed: false,
      reason: "MALWARE_DETECTED",
      message: "ClamAV 1.4.3 (database 2) found Files-Test.EICAR.UNOFFICIAL",
    });
    expect(objects.actions(record.id)).toEqual(["UPLOAD_COMPLETED", "SCAN_FAILED"]);
  });

  it("no verdict: the file waits in SCANNING for the scan activity, never READY", async () => {
    const { ref, record } = stored(pdf());
    const { malware, seen } = engine("down");
    const outcome = await verifyAndComplete({ ...lifecyclePorts(objects, storage), malware }, ref, request);
    expect(outcome.state.status).toBe("SCANNING");
    expect(objects.actions(record.id)).toEqual(["UPLOAD_COMPLETED"]);
    expect(seen.unavailable).toHaveLength(1);
  });
});

describe("the scan activity with the engine", () => {
  const scanning = () => stored(csv([["a", "b"], ["1", "2"]]), { status: "SCANNING", contentType: "text/csv", objectClass: "STATEMENT" });

  it("streams the object once for the checks and the engine", async () => {
    const { ref, record } = scanning();
    const { malware, seen } = engine({ verdict: "clean" });
    const result = await scanStoredObject({ ...lifecyclePorts(objects, storage), malware }, ref, { heartbeat: () => undefined });
    expect(result).toMatchObject({ passed: true, malware: { verdict: "clean" } });
    expect(storage.requests.filter((r) => r === "stream")).toHaveLength(1);
    expect(seen.bytes).toBe(storage.objects.get(record.storageKey)!.length);
  });

  it("reads a PDF too large for complete in one stream: the tail, and the head once the engine pulls, come out of it", async () => {
    const bytes = pdf({ streams: [{ dictionary: "", data: new Uint8Array(20 * 1024 * 1024).fill(0x20) }] });
    const { ref } = stored(bytes, { status: "SCANNING" });
    const { malware, seen } = engine({ verdict: "clean" });
    const result = await scanStoredObject({ ...lifecyclePorts(objects, storage), malware }, ref, { heartbeat: () => undefined });
    expect(result).toMatchObject({ passed: true });
    expect(storage.requests).toEqual(["stream"]);
    expect(seen.bytes).toBe(bytes.length);
  });

  it("fails its attempt when the engine gives no verdict (Temporal retries it), and says so", async () => {
    const { ref } = scanning();
    const { malware, seen } = engine("down");
    await expect(scanStoredObject({ ...lifecyclePorts(objects, storage), malware }, ref, { heartbeat: () => undefined })).rejects.toBeInstanceOf(MalwareScannerError);
    expect(seen.unavailable).toHaveLength(1);
    expect((await objects.findRecord(ref.tenantId, ref.objectId))?.status).toBe("SCANNING");
  });
});
