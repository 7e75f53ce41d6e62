import type { LifecyclePorts, ObjectRef } from "./lifecycle-ports.js";

/**
 * Removes the bucket object of a soft-deleted row. Safe to repeat: a retry after a crash
 * between the row update and the storage delete finishes the job.
 */
export async function finishStorageDelete(ports: Pick<LifecyclePorts, "objects" | "storage">, ref: ObjectRef): Promise<void> {
  const record = await ports.objects.findRecord(ref.tenantId, ref.objectId);
  if (!record?.deleted || !record.storageDeletePending) return;
  await ports.storage.delete(record.storageKey);
  await ports.objects.markStorageDeleted(ref.tenantId, ref.objectId);
}

/** Superseded photos and logos keep a new deadline: their workflows re-arm. Repeats are harmless. */
export async function announceSuperseded(ports: Pick<LifecyclePorts, "retentionChanged">, tenantId: string, ids: string[]): Promise<void> {
  for (const objectId of ids) await ports.retentionChanged({ tenantId, objectId });
}
