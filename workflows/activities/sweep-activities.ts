import { Context } from "@temporalio/activity";
import type { StoredObjectStore } from "../../src/adapters/postgres/stored-object-store.js";
import type { ObjectStorage } from "../../src/domain/files/object-storage.js";
import { SYSTEM_ACTOR_ID } from "../../src/domain/files/stored-object.js";
import type { SweepActivities } from "./sweep-types.js";

export interface SweepDeps {
  store: StoredObjectStore;
  storage: ObjectStorage;
  /** True while the object's own workflow is running (it will expire the object itself). */
  workflowRunning(tenantId: string, objectId: string): Promise<boolean>;
  now(): Date;
}

export function createSweepActivities(deps: SweepDeps): SweepActivities {
  return {
    async expireOverdueRows(batchSize) {
      const overdue = await deps.store.overdue(deps.now(), batchSize);
      let expired = 0;
      for (const row of overdue) {
        Context.current().heartbeat(expired);
        if (await deps.workflowRunning(row.tenantId, row.id)) continue;
        const actor = { tenantId: row.tenantId, actorId: SYSTEM_ACTOR_ID };
        if (await deps.store.expire(actor, row.id, deps.now())) {
          expired++;
          await deps.storage.delete(row.storageKey);
          await deps.store.markStorageDeleted(row.tenantId, row.id);
        }
      }
      return { scanned: overdue.length, expired };
    },

    async finishPendingStorageDeletes(batchSize) {
      const pending = await deps.store.pendingStorageDeletes(batchSize);
      for (const row of pending) {
        Context.current().heartbeat(row.id);
        await deps.storage.delete(row.storageKey);
        await deps.store.markStorageDeleted(row.tenantId, row.id);
      }
      return pending.length;
    },

    async removeOrphanObjects(startAfter, minAgeSeconds) {
      const page = await deps.storage.list("tenants/", startAfter);
      const cutoff = deps.now().getTime() - minAgeSeconds * 1000;
      const old = page.objects.filter((o) => o.lastModified.getTime() < cutoff);
      const owned = await deps.store.liveStorageKeys(old.map((o) => o.key));
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
