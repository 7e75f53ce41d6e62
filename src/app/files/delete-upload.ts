import { AppError } from "../../domain/errors.js";
import type { Actor } from "../../domain/files/stored-object.js";
import type { FileStorageDeps } from "./deps.js";
import { finishStorageDelete } from "./lifecycle/storage-delete.js";

/**
 * Soft-deletes the row, then hard-deletes the bucket object. If the storage delete fails, the
 * row stays marked and the sweep finishes the job: the client's answer does not depend on it.
 */
export async function deleteUpload(deps: FileStorageDeps, actor: Actor, objectId: string): Promise<void> {
  const outcome = await deps.store.softDelete(actor, objectId, deps.now());
  if (outcome === "missing") throw new AppError("OBJECT_NOT_FOUND", `upload ${objectId} not found`);
  if (outcome === "held") throw new AppError("LEGAL_HOLD_ACTIVE", "the object is under a legal hold; release the hold first");
  try {
    await finishStorageDelete({ objects: deps.store, storage: deps.storage }, { tenantId: actor.tenantId, objectId });
  } catch {
    // Left to the sweep (storage_delete_pending stays true).
  }
  await deps.lifecycle.retentionChanged({ tenantId: actor.tenantId, objectId }).catch(() => undefined);
}
