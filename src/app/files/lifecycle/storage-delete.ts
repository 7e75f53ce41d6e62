import type { Actor } from "../../../domain/actor.js";
import type { ObjectRef } from "../../../domain/files/object-ref.js";
import type { ObjectStorage } from "../port.js";
import type { LifecycleObjects } from "./port.js";

/** What removing an owed bucket object takes: the API's delete, the lifecycle and the sweep each have it. */
export interface DeletePorts {
  objects: Pick<LifecycleObjects, "findRecord" | "markStorageDeleted" | "auditOnce">;
  storage: Pick<ObjectStorage, "delete">;
  now(): Date;
}

/** Removes the bucket object a soft-deleted row still owes; answers the error of a failed attempt. */
export async function deleteOwedObject(
  ports: { objects: Pick<LifecycleObjects, "findRecord" | "markStorageDeleted">; storage: Pick<ObjectStorage, "delete"> },
  ref: ObjectRef,
): Promise<{ deleteReason?: string; error?: Error } | undefined> {
  const record = await ports.objects.findRecord(ref.tenantId, ref.objectId);
  if (!record?.deleted || !record.storageDeletePending) return undefined;
  try {
    await ports.storage.delete(record.storageKey);
  } catch (error) {
    return { deleteReason: record.deleteReason, error: error as Error };
  }
  await ports.objects.markStorageDeleted(ref.tenantId, ref.objectId);
  return {};
}

/**
 * Removes the bucket object of a soft-deleted row. Safe to repeat: a retry after a crash
 * between the row update and the storage delete finishes the job. A failed storage delete is
 * audited (once per cause, however often it is retried) and thrown, for the caller or the sweep
 * to try again: the bytes of a deleted object still exist, which is what compliance asks about.
 */
export async function finishStorageDelete(ports: DeletePorts, ref: ObjectRef, actor: Actor): Promise<void> {
  const outcome = await deleteOwedObject(ports, ref);
  if (!outcome?.error) return;
  const details = { reason: "STORAGE_DELETE_FAILED", message: outcome.error.message };
  const action = outcome.deleteReason === "EXPIRED" ? "OBJECT_EXPIRED" : "OBJECT_DELETED";
  await ports.objects.auditOnce({ objectId: ref.objectId, action, actor, result: "FAILURE", details, at: ports.now() });
  throw outcome.error;
}
