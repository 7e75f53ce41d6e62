import type { Actor } from "../../../domain/actor.js";
import type { LifecyclePorts, ObjectRef } from "./lifecycle-ports.js";

/**
 * Removes the bucket object of a soft-deleted row. Safe to repeat: a retry after a crash
 * between the row update and the storage delete finishes the job. A failed storage delete is
 * audited (once per cause, however often it is retried) and thrown, for the caller or the sweep
 * to try again: the bytes of a deleted object still exist, which is what compliance asks about.
 */
export async function finishStorageDelete(ports: Pick<LifecyclePorts, "objects" | "storage" | "now">, ref: ObjectRef, actor: Actor): Promise<void> {
  const record = await ports.objects.findRecord(ref.tenantId, ref.objectId);
  if (!record?.deleted || !record.storageDeletePending) return;
  try {
    await ports.storage.delete(record.storageKey);
  } catch (error) {
    const details = { reason: "STORAGE_DELETE_FAILED", message: (error as Error).message };
    const action = record.deleteReason === "EXPIRED" ? "OBJECT_EXPIRED" : "OBJECT_DELETED";
    await ports.objects.auditOnce({ objectId: ref.objectId, action, actor, result: "FAILURE", details, at: ports.now() });
    throw error;
  }
  await ports.objects.markStorageDeleted(ref.tenantId, ref.objectId);
}
