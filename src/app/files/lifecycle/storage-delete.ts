import type { Actor } from "../../../domain/actor.js";
import type { ObjectRef } from "../../../domain/files/object-ref.js";
import type { LifecyclePorts } from "./lifecycle-ports.js";

type DeletePorts = Pick<LifecyclePorts, "objects" | "storage" | "now">;

/** Removes the bucket object a soft-deleted row still owes; answers the error of a failed attempt. */
async function deleteOwedObject(ports: DeletePorts, ref: ObjectRef): Promise<{ deleteReason?: string; error?: Error } | undefined> {
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

export type SweptDelete = "deleted" | "failed" | "abandoned" | "not-owed";

/**
 * The sweep's storage delete: a failure is not thrown (one bucket object that cannot be removed
 * must not stop the rest of the run) but counted on the row, once per sweep run (the actor's
 * correlation), which gives up after `maxFailedRuns` runs; the row's first failure and the
 * give-up are audited (see domain/files/storage-delete-failures.ts).
 */
export async function sweepStorageDelete(ports: DeletePorts, ref: ObjectRef, actor: Actor, maxFailedRuns: number): Promise<{ outcome: SweptDelete; error?: Error }> {
  const attempt = await deleteOwedObject(ports, ref);
  if (!attempt) return { outcome: "not-owed" };
  if (!attempt.error) return { outcome: "deleted" };
  const recorded = await ports.objects.recordStorageDeleteFailure(actor, ref.objectId, { message: attempt.error.message, maxFailedRuns, at: ports.now() });
  return { outcome: recorded?.abandoned ? "abandoned" : "failed", error: attempt.error };
}
