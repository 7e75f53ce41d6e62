import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import type { StoredObjectView } from "../../domain/files/stored-object.js";
import { findOrFail, type FileStorageDeps } from "./deps.js";

/**
 * Places or releases a hold: on the row, then mirrored onto the bucket object, and the workflow is
 * told so its timer re-arms. What a hold does is stated in domain/files/legal-hold.ts.
 */
export async function setLegalHold(
  deps: FileStorageDeps,
  actor: Actor,
  objectId: string,
  hold: { reason: string } | null,
): Promise<StoredObjectView> {
  const outcome = await deps.store.setHold(actor, objectId, hold, deps.now());
  if (outcome === "missing") throw new AppError("OBJECT_NOT_FOUND", `upload ${objectId} not found`);
  if (outcome === "unchanged" && !hold) throw new AppError("LEGAL_HOLD_NOT_ACTIVE", "the object has no legal hold");
  const object = await findOrFail(deps, actor, objectId);
  if (outcome === "changed") {
    // Mirrored whenever bytes exist; a pending upload's hold reaches them at complete.
    await deps.storage.setLegalHold(object.storageKey, hold !== null);
    await deps.lifecycle.retentionChanged({ tenantId: actor.tenantId, objectId }, hold ? "legal hold placed" : "legal hold released");
  }
  return object;
}
