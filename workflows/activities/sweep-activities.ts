import { Context } from "@temporalio/activity";
import { expireRow } from "../../src/app/files/lifecycle/expire-object.js";
import type { ObjectRef } from "../../src/domain/files/object-ref.js";
import { sweepStorageDelete } from "../../src/app/files/lifecycle/storage-delete.js";
import type { StoredObjects } from "../../src/app/files/port.js";
import type { Actor } from "../../src/domain/actor.js";
import type { ObjectStorage } from "../../src/domain/files/object-storage.js";
import { STORAGE_KEY_ROOT } from "../../src/domain/files/storage-key.js";
import { systemActor, workflowCorrelation } from "./activity-correlation.js";
import type { StorageDeleteCounts, SweepActivities } from "./sweep-types.js";

export interface SweepDeps {
  objects: StoredObjects;
  storage: ObjectStorage;
  /** True while the object's own workflow is running (it will expire the object itself). */
  workflowRunning(ref: ObjectRef): Promise<boolean>;
  /** Tells the object's workflow (started again if it ended) to re-read its state and act. */
  redrive(ref: ObjectRef): Promise<void>;
  /** How long after complete a scan must have ended (the scan activity's whole budget). */
  scanDeadlineSeconds: number;
  /** Sweep runs a storage delete may fail in before the sweep gives up on it (SWEEP_STORAGE_DELETE_MAX_FAILED_RUNS). */
  storageDeleteMaxFailedRuns: number;
  now(): Date;
}

const cursorOf = (at: Date | string | undefined, id: string) => ({ at: at instanceof Date ? at.toISOString() : at!, id });

export function createSweepActivities(deps: SweepDeps): SweepActivities {
  /** One row's storage delete: a failure is logged and counted, never thrown (see sweepStorageDelete). */
  async function deleteOwed(ref: ObjectRef, actor: Actor, counts: StorageDeleteCounts): Promise<boolean> {
    const { outcome, error } = await sweepStorageDelete(deps, ref, actor, deps.storageDeleteMaxFailedRuns);
    if (outcome === "failed" || outcome === "abandoned") {
      counts.storageDeleteFailures++;
      if (outcome === "abandoned") counts.storageDeletesAbandoned++;
      Context.current().log.warn("storage delete failed; the row keeps it owed", { ...ref, outcome, error: error?.message });
    }
    return outcome === "deleted";
  }

  return {
    async expireOverdueRows(batchSize, after) {
      const overdue = await deps.objects.overdue(deps.now(), batchSize, after && { at: new Date(after.at), id: after.id });
      const counts = { storageDeleteFailures: 0, storageDeletesAbandoned: 0 };
      let expired = 0;
      for (const row of overdue) {
        Context.current().heartbeat(row.id);
        const ref = { tenantId: row.tenantId, objectId: row.id };
        if (await deps.workflowRunning(ref)) continue;
        const actor = systemActor(row.tenantId);
        // A retried activity finds the row already expired (no longer due): nothing twice.
        if (await expireRow(deps, ref, actor)) expired++;
        await deleteOwed(ref, actor, counts);
      }
      const last = overdue.at(-1);
      // A keyset cursor: rows left alone (their workflow runs) are not selected again.
      return { scanned: overdue.length, expired, ...counts, next: last && cursorOf(last.retentionExpiresAt, last.id) };
    },

    async redriveStuckScans(batchSize) {
      const before = new Date(deps.now().getTime() - deps.scanDeadlineSeconds * 1000);
      const stuck = await deps.objects.stuckScans(before, batchSize);
      for (const row of stuck) {
        Context.current().heartbeat(row.id);
        await deps.redrive({ tenantId: row.tenantId, objectId: row.id });
      }
      return stuck.length;
    },

    async finishPendingStorageDeletes(batchSize, after) {
      // Rows that failed earlier in this run (while being expired) wait for the next run.
      const run = workflowCorrelation();
      const pending = await deps.objects.pendingStorageDeletes(batchSize, after && { at: new Date(after.at), id: after.id }, run);
      const counts = { storageDeleteFailures: 0, storageDeletesAbandoned: 0 };
      let finished = 0;
      for (const row of pending) {
        Context.current().heartbeat(row.id);
        if (await deleteOwed({ tenantId: row.tenantId, objectId: row.id }, systemActor(row.tenantId), counts)) finished++;
      }
      const last = pending.at(-1);
      return { scanned: pending.length, finished, ...counts, next: last && cursorOf(last.deletedAt, last.id) };
    },

    async removeOrphanObjects(startAfter, minAgeSeconds) {
      const page = await deps.storage.list(STORAGE_KEY_ROOT, startAfter);
      const cutoff = deps.now().getTime() - minAgeSeconds * 1000;
      const old = page.objects.filter((o) => o.lastModified.getTime() < cutoff);
      const owned = await deps.objects.liveStorageKeys(old.map((o) => o.key));
      let removed = 0;
      let failed = 0;
      for (const object of old) {
        if (owned.has(object.key)) continue;
        try {
          await deps.storage.delete(object.key);
          removed++;
        } catch (error) {
          // No row to record it on: the key stays in the bucket and the next run lists it again.
          failed++;
          Context.current().log.warn("orphan delete failed", { key: object.key, error: (error as Error).message });
        }
      }
      Context.current().heartbeat(page.nextStartAfter);
      return { removed, failed, nextStartAfter: page.nextStartAfter };
    },
  };
}
