import type { Actor } from "../../domain/actor.js";
import type { StoredObjectView } from "../../domain/files/stored-object.js";
import { checkPartsTotal } from "../../domain/files/part-plan.js";
import { findOrFail, type FileStorageDeps } from "./deps.js";
import { partPlanOf } from "./multipart-upload.js";
import { requireUploadInitiator } from "./require-upload-initiator.js";

export interface CompleteInput {
  objectId: string;
  checksum?: string;
  waitForResult: boolean;
  /** The caller may change any of the tenant's objects, not only the uploads it initiated. */
  mayUpdateAnyObject: boolean;
}

/**
 * Complete is one Update of the object's workflow, so the answer is synchronous; with
 * waitForResult the same Update answers once the scan ended (bounded). Calling it again once the
 * object settled returns the object as it is. While it is SCANNING the Update is sent again: the
 * first one may have moved the row and then been lost with its workflow task (a Temporal server
 * restart loses an Update not yet accepted), and the workflow learns the row's state from it.
 */
export async function completeUpload(deps: FileStorageDeps, actor: Actor, input: CompleteInput): Promise<StoredObjectView> {
  const current = await findOrFail(deps, actor, input.objectId);
  // Before anything else, settled objects included: a stranger learns nothing and moves nothing.
  await requireUploadInitiator(deps, actor, current.id, input.mayUpdateAnyObject);
  if (current.status !== "PENDING_UPLOAD" && current.status !== "SCANNING") return current;
  if (current.status === "PENDING_UPLOAD") await completeMultipartInStorage(deps, actor, current);
  return deps.lifecycle.complete(
    { tenantId: actor.tenantId, objectId: current.id },
    {
      checksum: input.checksum || undefined,
      actorId: actor.actorId,
      requestId: actor.requestId,
      waitSeconds: input.waitForResult ? deps.completeWaitTimeoutSeconds : 0,
    },
  );
}

/**
 * A multipart upload becomes one stored object before the workflow verifies it, so that the
 * lifecycle goes on exactly as after a single PUT. The server lists the parts itself (the client
 * sends no ETags: storage's list is the truth), refuses a sum above the class maximum before
 * anything is completed, and completes without overwriting. No upload left in storage means
 * another complete won (or it was aborted): the workflow decides from what is stored.
 */
async function completeMultipartInStorage(deps: FileStorageDeps, actor: Actor, object: StoredObjectView): Promise<void> {
  const session = await deps.store.latestSession(actor.tenantId, object.id);
  if (!partPlanOf(session)) return;
  const uploadId = await deps.storage.findMultipart(object.storageKey);
  if (!uploadId) return;
  const parts = await deps.storage.listParts(object.storageKey, uploadId);
  if (!parts?.length) return;
  const maxBytes = Number(session!.policySnapshot.maxFileSizeBytes);
  checkPartsTotal(
    parts.map((part) => part.size),
    Number.isFinite(maxBytes) ? maxBytes : deps.storageConfig.maxFileSizeBytes,
  );
  try {
    await deps.storage.completeMultipart(object.storageKey, uploadId, parts);
  } catch (error) {
    // Refused while another complete finished it: the upload is gone and the workflow decides.
    if ((await deps.storage.findMultipart(object.storageKey)) === uploadId) throw error;
  }
}
