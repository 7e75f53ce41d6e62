import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import type { FileStorageDeps } from "./deps.js";
import { finishStorageDelete } from "./lifecycle/storage-delete.js";

/**
 * Soft-deletes the row, then hard-deletes the bucket object. If the storage delete fails, the
 * row stays marked and the sweep finishes the job: the client's answer does not depend on it.
 * A delete refused by a legal hold (domain/files/legal-hold.ts) is audited as a FAILURE (once per
 * request id): an attempt to remove held evidence is what a compliance review looks for.
 */
export async function deleteUpload(deps: FileStorageDeps, actor: Actor, objectId: string): Promise<void> {
  const outcome = await deps.store.softDelete(actor, objectId, deps.now());
  if (outcome === "missing") throw new AppError("OBJECT_NOT_FOUND", `upload ${objectId} not found`);
  if (outcome === "held") {
    const details = { reason: "LEGAL_HOLD_ACTIVE" };
    await deps.store.auditOnce({ objectId, action: "OBJECT_DELETED", actor, result: "FAILURE", details, at: deps.now() });
    throw new AppError("LEGAL_HOLD_ACTIVE", "the object is under a legal hold; release the hold first");
  }
  try {
    await finishStorageDelete({ objects: deps.store, storage: deps.storage, now: deps.now }, { tenantId: actor.tenantId, objectId }, actor);
  } catch {
    // Audited as a FAILURE; left to the sweep (storage_delete_pending stays true).
  }
  await deps.lifecycle.retentionChanged({ tenantId: actor.tenantId, objectId }, "delete requested").catch(() => undefined);
}
