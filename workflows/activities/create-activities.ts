import { Context } from "@temporalio/activity";
import type { RetentionConfig } from "../../src/config.js";
import type { StoredObjectStore } from "../../src/adapters/postgres/stored-object-store.js";
import type { ObjectStorage } from "../../src/domain/files/object-storage.js";
import { SYSTEM_ACTOR_ID } from "../../src/domain/files/stored-object.js";
import type { ObjectRef } from "../definitions.js";
import { completeUploadActivity } from "./complete-upload.js";
import { finishScanActivity } from "./finish-scan.js";
import { scanObjectActivity } from "./scan-object.js";
import type { LifecycleActivities } from "./types.js";

export interface ActivityDeps {
  store: StoredObjectStore;
  storage: ObjectStorage;
  retention: RetentionConfig;
  /** Re-arms another object's retention timer (signal-with-start of its workflow). */
  retentionChanged(ref: ObjectRef): Promise<void>;
  now(): Date;
}

const systemActor = (ref: ObjectRef) => ({ tenantId: ref.tenantId, actorId: SYSTEM_ACTOR_ID });

/**
 * Removes the bucket object of a soft-deleted row. Safe to repeat: a retry after a crash
 * between the row update and the storage delete finishes the job.
 */
export async function finishStorageDelete(deps: ActivityDeps, ref: ObjectRef): Promise<void> {
  const row = await deps.store.findAny(ref.tenantId, ref.objectId);
  if (!row?.deletedAt || !row.storageDeletePending) return;
  await deps.storage.delete(row.storageKey);
  await deps.store.markStorageDeleted(ref.tenantId, ref.objectId);
}

export function createActivities(deps: ActivityDeps): LifecycleActivities {
  return {
    completeUpload: (ref, args) => completeUploadActivity(deps, ref, args),
    scanObject: (ref) => scanObjectActivity(deps, ref, (bytes) => Context.current().heartbeat(bytes)),
    finishScan: (ref, result) => finishScanActivity(deps, ref, result),
    async expireObject(ref) {
      const expired = await deps.store.expire(systemActor(ref), ref.objectId, deps.now());
      await finishStorageDelete(deps, ref);
      return expired;
    },
    async loadRetentionState(ref) {
      const row = await deps.store.findAny(ref.tenantId, ref.objectId);
      if (!row) return { exists: false, deleted: false, held: false };
      return {
        exists: true,
        deleted: !!row.deletedAt,
        held: !!row.legalHoldPlacedAt,
        status: row.status,
        objectClass: row.objectClass,
        ownerEntityType: row.ownerEntityType,
        retentionExpiresAt: row.retentionExpiresAt ? new Date(row.retentionExpiresAt).toISOString() : undefined,
      };
    },
    async loadObject(ref) {
      return (await deps.store.findLive(ref.tenantId, ref.objectId)) ?? null;
    },
  };
}
