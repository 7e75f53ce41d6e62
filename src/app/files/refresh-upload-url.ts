import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import type { PresignedUpload } from "./port.js";
import { findOrFail, type FileStorageDeps } from "./deps.js";
import { requireUploadInitiator } from "./require-upload-initiator.js";
import { newUploadSession } from "./upload-session.js";

/**
 * A fresh signed PUT URL for an object that is still PENDING_UPLOAD; audited. Only for whoever may
 * complete it: a URL lets its holder put other bytes under someone else's upload.
 */
export async function refreshUploadUrl(deps: FileStorageDeps, actor: Actor, objectId: string, mayUpdateAnyObject: boolean): Promise<PresignedUpload> {
  const object = await findOrFail(deps, actor, objectId);
  await requireUploadInitiator(deps, actor, object.id, mayUpdateAnyObject);
  if (object.status !== "PENDING_UPLOAD") {
    throw new AppError("UPLOAD_NOT_PENDING", `upload ${objectId} is ${object.status}; only a PENDING_UPLOAD object gets a new URL`);
  }
  const previous = await deps.store.latestSession(actor.tenantId, objectId);
  const now = deps.now();
  const upload = await deps.storage.presignUpload(
    {
      key: object.storageKey,
      contentType: object.contentType,
      contentLength: object.fileSize,
      md5Hex: previous?.contentMd5 ?? undefined,
      sha256Hex: previous?.contentSha256 ?? undefined,
      expiresInSeconds: deps.storageConfig.presignUploadExpirySeconds,
    },
    now,
  );
  const session = newUploadSession({
    id: deps.newId(),
    tenantId: actor.tenantId,
    objectId,
    initiatedBy: actor.actorId,
    upload,
    contentType: object.contentType,
    fileSize: object.fileSize,
    contentMd5: previous?.contentMd5,
    contentSha256: previous?.contentSha256,
    policySnapshot: previous?.policySnapshot ?? {},
    createdAt: now,
  });
  const added = await deps.store.addSession(session, {
    objectId,
    action: "UPLOAD_URL_REFRESHED",
    actor,
    details: { sessionId: session.id },
    at: now,
  });
  if (!added) throw new AppError("UPLOAD_NOT_PENDING", `upload ${objectId} is no longer PENDING_UPLOAD`);
  return upload;
}
