/**
 * One object's re-scan (src/app/files/rescan/rescan-object.ts) against an in-memory table and an
 * engine stand-in; the real clamd and PostgreSQL are test/integration/malware-rescan.test.ts's.
 */
import { describe, expect, it } from "vitest";
import type { MalwareEngine } from "../../../../src/app/files/lifecycle/deps.js";
import type { QuarantineRetention, RescanObjects } from "../../../../src/app/files/rescan/port.js";
import { rescanObject, type RescanDeps } from "../../../../src/app/files/rescan/rescan-object.js";
import type { Actor } from "../../../../src/domain/actor.js";
import type { MalwareScanRecord } from "../../../../src/domain/files/malware/malware-check.js";
import { MalwareScannerError, type MalwareVerdict } from "../../../../src/domain/files/malware/malware-verdict.js";
import type { ObjectRecord } from "../../../../src/domain/files/stored-object.js";
import { NOW, pendingRecord } from "../lifecycle/fakes.js";

const RETENTION = { tempUploadSeconds: 86_400, failedUploadSeconds: 7 * 86_400, supersededSeconds: 30 * 86_400, importArtifactSeconds: 90 * 86_400 };

/** The bucket's reads the re-scan uses: a stream, and a head to tell missing bytes from a failure. */
class Bucket {
  readonly objects = new Map<string, Uint8Array>();
  async *stream(key: string) {
    const bytes = this.objects.get(key);
    if (!bytes) throw new Error(`NoSuchKey: ${key}`);
    yield bytes;
  }
  async head(key: string) {
    const bytes = this.objects.get(key);
    return bytes && { size: bytes.length };
  }
}

class Table implements Pick<RescanObjects, "findRecord" | "quarantine"> {
  readonly audits: { action: string; details: unknown; actor: Actor }[] = [];
  constructor(public record: ObjectRecord) {}
  async findRecord() {
    return { ...this.record };
  }
  async quarantine(actor: Actor, _id: string, malware: MalwareScanRecord, retention: QuarantineRetention, now: Date) {
    if (this.record.deleted || this.record.status !== "READY") return false;
    this.record = { ...this.record, status: "QUARANTINED", isCurrent: false, retentionPolicy: retention.retentionPolicy, retentionExpiresAt: retention.retentionExpiresAt?.toISOString(), updatedAt: now.toISOString() };
    this.audits.push({ action: "OBJECT_QUARANTINED", details: { malware }, actor });
    return true;
  }
}

function setup(answer: MalwareVerdict | "down", overrides: Partial<ObjectRecord> = {}) {
  const bytes = new TextEncoder().encode("name,note\nAda,marker\n");
  const record = pendingRecord({ status: "READY", objectClass: "STATEMENT", contentType: "text/csv", fileSize: bytes.length, retentionPolicy: "PERMANENT", retentionExpiresAt: undefined, ...overrides });
  const table = new Table(record);
  const storage = new Bucket();
  storage.objects.set(record.storageKey, bytes);
  const seen = { scanned: 0, signalled: 0, unavailable: 0 };
  const malware: MalwareEngine = {
    scanner: {
      async scan(stream) {
        if (answer === "down") throw new MalwareScannerError("unreachable", "cannot connect to clamd");
        for await (const chunk of stream) seen.scanned += chunk.length;
        return answer;
      },
      version: async () => ({ engine: "ClamAV", engineVersion: "1.4.3", databaseVersion: 8 }),
      ping: async () => undefined,
      reload: async () => undefined,
    },
    // The cached version may still name the database before the reload: the record must not.
    version: async () => ({ engine: "ClamAV", engineVersion: "1.4.3", databaseVersion: 7 }),
    unavailable: () => seen.unavailable++,
  };
  const deps: RescanDeps = {
    objects: table as unknown as RescanObjects,
    storage,
    malware,
    retention: RETENTION,
    statusChanged: async () => void seen.signalled++,
    now: () => NOW,
  };
  return { deps, table, seen, ref: { tenantId: record.tenantId, objectId: record.id }, size: bytes.length };
}

describe("re-scanning one READY object", () => {
  it("quarantines a detection: status, failed-upload retention, audit with the new database, its workflow told", async () => {
    const { deps, table, seen, ref, size } = setup({ verdict: "infected", signature: "Files-Test.Rescan.UNOFFICIAL" });
    expect(await rescanObject(deps, ref, 8, "workflow:malware-rescan-8/run")).toBe("quarantined");
    expect(seen.scanned).toBe(size);
    expect(table.record).toMatchObject({ status: "QUARANTINED", retentionPolicy: "FAILED_UPLOAD_7D", retentionExpiresAt: "2026-03-08T12:00:00.000Z" });
    expect(table.audits).toEqual([
      {
        action: "OBJECT_QUARANTINED",
        details: { malware: { verdict: "infected", signature: "Files-Test.Rescan.UNOFFICIAL", engine: "ClamAV", engineVersion: "1.4.3", databaseVersion: 8 } },
        actor: { tenantId: ref.tenantId, actorId: "system", correlationId: "workflow:malware-rescan-8/run" },
      },
    ]);
    expect(seen.signalled).toBe(1);
  });

  it("run again after it succeeded, changes nothing and tells the workflow again", async () => {
    const { deps, table, seen, ref } = setup({ verdict: "infected", signature: "X" });
    await rescanObject(deps, ref, 8, "c");
    expect(await rescanObject(deps, ref, 8, "c")).toBe("skipped");
    expect(table.audits).toHaveLength(1);
    expect(seen.signalled).toBe(2);
  });

  it("a clean verdict changes nothing", async () => {
    const { deps, table, seen, ref } = setup({ verdict: "clean" });
    const before = { ...table.record };
    expect(await rescanObject(deps, ref, 8, "c")).toBe("clean");
    expect(table.record).toEqual(before);
    expect(seen.signalled).toBe(0);
  });

  it("the engine down is an error, never clean: the activity is retried", async () => {
    const { deps, table, seen, ref } = setup("down");
    await expect(rescanObject(deps, ref, 8, "c")).rejects.toBeInstanceOf(MalwareScannerError);
    expect(seen.unavailable).toBe(1);
    expect(table.record.status).toBe("READY");
  });

  it("skips what is no longer READY and what was scanned with this database or a later one", async () => {
    for (const overrides of [{ status: "REJECTED" as const }, { deleted: true }, { scanResult: { passed: true, checks: [], finishedAt: NOW.toISOString(), bytesRead: 1, malware: { verdict: "clean" as const, engine: "ClamAV", engineVersion: "1.4.3", databaseVersion: 8 } } }]) {
      const { deps, seen, ref } = setup({ verdict: "infected", signature: "X" }, overrides);
      expect(await rescanObject(deps, ref, 8, "c")).toBe("skipped");
      expect(seen.scanned).toBe(0);
    }
  });
});

describe("a READY row whose bytes are gone from the bucket", () => {
  it("answers missing instead of failing every retry", async () => {
    const { deps, ref, table } = setup({ verdict: "clean" });
    expect(await rescanObject({ ...deps, storage: new Bucket() }, ref, 8, "c")).toBe("missing");
    expect(table.record.status).toBe("READY");
  });
});
