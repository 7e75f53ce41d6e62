import type { Actor } from "../../domain/actor.js";
import type { FileStorageDeps } from "./deps.js";
import { deleteUpload } from "./delete-upload.js";
import { pendingMultipart } from "./multipart-upload.js";

/**
 * Ends a pending multipart upload: the object is deleted as a user delete deletes it (a legal
 * hold refuses), then storage drops its parts. Aborting twice is the delete's second call: not found.
 */
export async function abortUpload(deps: FileStorageDeps, actor: Actor, objectId: string, mayUpdateAnyObject: boolean): Promise<void> {
  const { object } = await pendingMultipart(deps, actor, objectId, mayUpdateAnyObject);
  // The delete first: a legal hold refuses it, and the parts stay with the held object. Parts an
  // abort failed to drop are left to the sweep, which aborts stale multipart uploads.
  await deleteUpload(deps, actor, object.id);
  const aborted = await deps.storage.abortMultipart(object.storageKey);
  deps.meters?.multipartAborted(aborted, "client");
}
