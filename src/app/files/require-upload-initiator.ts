import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import { mayFinishUpload, UPDATE_ANY_OBJECT_PERMISSION } from "../../domain/files/upload-authority.js";
import type { FileStorageDeps } from "./deps.js";

/**
 * Refuses, before anything moves, a caller who may not finish this upload. The initiator is read
 * from the stored first session of the object, never from the request.
 */
export async function requireUploadInitiator(deps: Pick<FileStorageDeps, "store">, actor: Actor, objectId: string, mayUpdateAnyObject: boolean): Promise<void> {
  if (mayUpdateAnyObject) return;
  const initiatorId = await deps.store.initiatorOf(actor.tenantId, objectId);
  if (mayFinishUpload(initiatorId, { actorId: actor.actorId, mayUpdateAnyObject })) return;
  throw new AppError("PERMISSION_DENIED", `only the user who initiated upload ${objectId}, or a caller with ${UPDATE_ANY_OBJECT_PERMISSION}, may finish it`);
}
