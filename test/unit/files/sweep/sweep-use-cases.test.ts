import { describe, expect, it } from "vitest";
import type { SweepDeps, SweepRun } from "../../../../src/app/files/sweep/deps.js";
import { expireOverdueRows } from "../../../../src/app/files/sweep/expire-overdue-rows.js";
import { finishPendingStorageDeletes } from "../../../../src/app/files/sweep/finish-pending-storage-deletes.js";
import { removeOrphanObjects } from "../../../../src/app/files/sweep/remove-orphan-objects.js";
import type { SweepObjects } from "../../../../src/app/files/sweep/port.js";
import type { RetentionPolicyName } from "../../../../src/domain/files/object-classes.js";
import { STORAGE_KEY_ROOT } from "../../../../src/domain/files/storage-key.js";
import { FakeObjects, FakeStorage, NOW, pendingRecord } from "../lifecycle/fakes.js";

/** The sweep's reads over the fake's rows, as the store answers them (deadline order, holds left out). */
function sweepRows(rows: FakeObjects): SweepObjects {
  const all = () => [...rows.rows.values()];
  return {
    findRecord: (tenantId, id) => rows.findRecord(tenantId, id),
    markStorageDeleted: (tenantId, id) => rows.markStorageDeleted(tenantId, id),
    recordStorageDeleteFailure: (actor, id, failure) => rows.recordStorageDeleteFailure(actor, id, failure),
    async expire(_actor, id, _now, isDue) {
      const row = rows.rows.get(id)!;
      const candidate = { ...row, retentionPolicy: row.retentionPolicy as RetentionPolicyName, retentionExpiresAt: new Date(row.retentionExpiresAt!), legalHold: !!row.legalHold };
      if (!isDue(candidate)) return false;
      Object.assign(row, { deleted: true, deleteReason: "EXPIRED", storageDeletePending: true });
      return true;
    },
    overdue: async (now) =>
      all()
        .filter((r) => !r.deleted && !r.legalHold && r.retentionExpiresAt && new Date(r.retentionExpiresAt) <= now)
        .sort((a, b) => a.retentionExpiresAt!.localeCompare(b.retentionExpiresAt!)),
    stuckScans: async () => [],
    pendingStorageDeletes: async () => all().filter((r) => r.deleted && r.storageDeletePending).map((r) => ({ tenantId: r.tenantId, id: r.id, deletedAt: NOW })),
    liveStorageKeys: async (keys) => new Set(keys.filter((k) => all().some((r) => r.storageKey === k && !r.deleted))),
  };
}

/** The fake bucket with a listing: every key, modified at `modified` (the epoch when not given). */
function listed(storage: FakeStorage, modified = new Map<string, Date>(), prefixes: string[] = []): SweepDeps["storage"] {
  return {
    delete: (key) => storage.delete(key),
    list: async (prefix) => {
      prefixes.push(prefix);
      return { objects: [...storage.objects.keys()].map((key) => ({ key, lastModified: modified.get(key) ?? new Date(0) })) };
    },
    listStaleMultipart: async () => ({ uploads: [] }),
    abortMultipartUpload: async () => undefined,
  };
}

function sweep(objects: FakeObjects, storage: SweepDeps["storage"], running: string[] = []): SweepDeps {
  return {
    objects: sweepRows(objects),
    storage,
    pendingUploadSeconds: 60,
    workflowRunning: async (ref) => running.includes(ref.objectId),
    redrive: async () => undefined,
    scanDeadlineSeconds: 60,
    storageDeleteMaxFailedRuns: 3,
    now: () => NOW,
  };
}

function run(): SweepRun & { warnings: string[] } {
  const warnings: string[] = [];
  return { correlationId: "workflow:retention-sweep/run-1", heartbeat: () => undefined, warn: (message) => warnings.push(message), warnings };
}

const overdueRow = (n: number) =>
  pendingRecord({
    id: `0190c3a2-0000-7000-8000-00000000000${n}`,
    storageKey: `${STORAGE_KEY_ROOT}t1/User/u1/${n}`,
    status: "READY",
    retentionPolicy: "SUPERSEDED_30D",
    retentionExpiresAt: new Date(NOW.getTime() - 1000 * (10 - n)).toISOString(),
  });

describe("the sweep's use cases", () => {
  it("expires overdue rows whose workflow is gone, removes their bytes, leaves the others to their workflow and answers the last row read", async () => {
    const objects = new FakeObjects();
    const storage = new FakeStorage();
    const [own, orphaned, held] = [overdueRow(1), overdueRow(2), { ...overdueRow(3), legalHold: { reason: "case", placedBy: "a", placedAt: NOW.toISOString() } }];
    for (const row of [own, orphaned, held]) {
      objects.put(row);
      storage.objects.set(row.storageKey, new Uint8Array([1]));
    }
    const batch = await expireOverdueRows(sweep(objects, listed(storage), [own.id]), 10, undefined, run());
    expect(batch).toMatchObject({ scanned: 2, expired: 1, storageDeleteFailures: 0, next: { at: new Date(orphaned.retentionExpiresAt!), id: orphaned.id } });
    expect([...storage.objects.keys()]).toEqual([own.storageKey, held.storageKey]);
    expect([own, orphaned, held].map((r) => objects.rows.get(r.id)!.deleted)).toEqual([false, true, false]);
  });

  it("counts a storage delete that fails, warns, and keeps it owed", async () => {
    const objects = new FakeObjects();
    const row = { ...overdueRow(1), deleted: true, deleteReason: "EXPIRED" as const, storageDeletePending: true };
    objects.put(row);
    const failing = new (class extends FakeStorage {
      override async delete(): Promise<void> {
        throw new Error("storage unavailable");
      }
    })();
    const current = run();
    const batch = await finishPendingStorageDeletes(sweep(objects, listed(failing)), 10, undefined, current);
    expect(batch).toMatchObject({ scanned: 1, finished: 0, storageDeleteFailures: 1, storageDeletesAbandoned: 0 });
    expect(current.warnings).toEqual(["storage delete failed; the row keeps it owed"]);
    expect(objects.rows.get(row.id)!.storageDeletePending).toBe(true);
  });

  it("removes old bucket objects no row owns, under the key layout's root only", async () => {
    const objects = new FakeObjects();
    const storage = new FakeStorage();
    const [modified, prefixes] = [new Map<string, Date>(), [] as string[]];
    const owned = overdueRow(1);
    objects.put(owned);
    const [orphan, young] = [`${STORAGE_KEY_ROOT}t1/User/u1/orphan`, `${STORAGE_KEY_ROOT}t1/User/u1/arriving`];
    for (const key of [owned.storageKey, orphan, young]) storage.objects.set(key, new Uint8Array([1]));
    modified.set(young, NOW);
    const page = await removeOrphanObjects(sweep(objects, listed(storage, modified, prefixes)), undefined, 60, run());
    expect(page).toEqual({ removed: 1, failed: 0, nextStartAfter: undefined });
    expect(prefixes).toEqual([STORAGE_KEY_ROOT]);
    expect([...storage.objects.keys()].sort()).toEqual([young, owned.storageKey].sort());
  });
});
