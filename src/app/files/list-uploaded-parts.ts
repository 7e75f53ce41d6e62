import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import type { FileStorageDeps } from "./deps.js";
import { multipartUploadId, pendingMultipart } from "./multipart-upload.js";
import type { StoredPart } from "./port.js";

/** What storage already holds of a pending multipart upload: a resumed upload sends only the rest. */
export async function listUploadedParts(deps: FileStorageDeps, actor: Actor, objectId: string, mayUpdateAnyObject: boolean): Promise<StoredPart[]> {
  const { object } = await pendingMultipart(deps, actor, objectId, mayUpdateAnyObject);
  const parts = await deps.storage.listParts(object.storageKey, await multipartUploadId(deps, object));
  if (!parts) throw new AppError("UPLOAD_NOT_PENDING", `upload ${objectId} was completed or aborted meanwhile`);
  // Asking what storage holds, when it holds something, is what a resuming client does.
  if (parts.length > 0) deps.meters?.uploadResumed();
  return parts;
}
