import { Context } from "@temporalio/activity";
import { expireObject } from "../../src/app/files/lifecycle/expire-object.js";
import type { ObjectRef } from "../../src/app/files/lifecycle/lifecycle-ports.js";
import { finishStorageDelete } from "../../src/app/files/lifecycle/storage-delete.js";
import type { StoredObjects } from "../../src/app/files/port.js";
import type { ObjectStorage } from "../../src/domain/files/object-storage.js";
import { systemActor, workflowCorrelation } from "./activity-correlation.js";
import type { SweepActivities } from "./sweep-types.js";

export interface SweepDeps {
  objects: StoredObjects;
  storage: ObjectStorage;
  /** True while the object's own workflow is running (it will expire the object itself). */
  workflowRunning(ref: ObjectRef): Promise<boolean>;
  /** Tells the object's workflow (started again if it ended) to re-read its state and act. */
  redrive(ref: ObjectRef): Promise<void>;
  /** How long after complete a scan must have ended (the scan activity's whole budget). */
  scanDeadlineSeconds: number;
  now(): Date;
}

export function createSweepActivities(deps: SweepDeps): SweepActivities {
  return {
    async expireOverdueRows(batchSize, after) {
      const overdue = await deps.objects.overdue(deps.now(), batchSize, after && { at: new Date(after.at), id: after.id });
      let expired = 0;
      for (const row of overdue) {
        Context.current().heartbeat(expired);
        const ref = { tenantId: row.tenantId, objectId: row.id };
        if (await deps.workflowRunning(ref)) continue;
        if ((await expireObject(deps, ref, workflowCorrelation())).expired) expired++;
      }
      const last = overdue.at(-1);
      // A keyset cursor: rows left alone (their workflow runs) are not selected again.
      return { scanned: overdue.length, expired, next: last && { at: last.retentionExpiresAt!, id: last.id } };
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

    async finishPendingStorageDeletes(batchSize) {
      const pending = await deps.objects.pendingStorageDeletes(batchSize);
      for (const row of pending) {
        Context.current().heartbeat(row.id);
        await finishStorageDelete(deps, { tenantId: row.tenantId, objectId: row.id }, systemActor(row.tenantId));
      }
      return pending.length;
    },

    async removeOrphanObjects(startAfter, minAgeSeconds) {
      const page = await deps.storage.list("tenants/", startAfter);
      const cutoff = deps.now().getTime() - minAgeSeconds * 1000;
      const old = page.objects.filter((o) => o.lastModified.getTime() < cutoff);
      const owned = await deps.objects.liveStorageKeys(old.map((o) => o.key));
      let removed = 0;
      for (const object of old) {
        if (owned.has(object.key)) continue;
        await deps.storage.delete(object.key);
        removed++;
      }
      Context.current().heartbeat(page.nextStartAfter);
      return { removed, nextStartAfter: page.nextStartAfter };
    },
  };
}
