import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import type { PartPlan } from "../../domain/files/part-plan.js";
import type { StoredObjectView } from "../../domain/files/stored-object.js";
import { findOrFail, type FileStorageDeps } from "./deps.js";
import type { UploadSession } from "./port.js";
import { requireUploadInitiator } from "./require-upload-initiator.js";

/** The part plan an upload was initiated with, kept in its session's policy snapshot; undefined for a single PUT. */
export function partPlanOf(session: UploadSession | undefined): PartPlan | undefined {
  const plan = session?.policySnapshot.multipart as PartPlan | undefined;
  return plan && typeof plan.partSize === "number" ? plan : undefined;
}

export interface PendingMultipart {
  object: StoredObjectView;
  session: UploadSession;
  plan: PartPlan;
}

/**
 * The multipart upload the caller may drive: the object is PENDING_UPLOAD, was initiated in
 * parts, and the caller initiated it (or may change any object).
 */
export async function pendingMultipart(deps: FileStorageDeps, actor: Actor, objectId: string, mayUpdateAnyObject: boolean): Promise<PendingMultipart> {
  const object = await findOrFail(deps, actor, objectId);
  await requireUploadInitiator(deps, actor, object.id, mayUpdateAnyObject);
  if (object.status !== "PENDING_UPLOAD") {
    throw new AppError("UPLOAD_NOT_PENDING", `upload ${objectId} is ${object.status}; its parts can no longer change`);
  }
  const session = await deps.store.latestSession(actor.tenantId, object.id);
  const plan = partPlanOf(session);
  if (!session || !plan) throw new AppError("UPLOAD_NOT_PENDING", `upload ${objectId} is a single PUT, not a multipart upload`);
  return { object, session, plan };
}

/** The storage backend's upload id of the object; gone means aborted (or completed by another call). */
export async function multipartUploadId(deps: FileStorageDeps, object: StoredObjectView): Promise<string> {
  const uploadId = await deps.storage.findMultipart(object.storageKey);
  if (!uploadId) throw new AppError("UPLOAD_NOT_PENDING", `upload ${object.id} has no multipart upload in storage (aborted or completed)`);
  return uploadId;
}
