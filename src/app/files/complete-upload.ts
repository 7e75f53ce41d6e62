import type { Actor } from "../../domain/actor.js";
import type { StoredObjectView } from "../../domain/files/stored-object.js";
import { findOrFail, type FileStorageDeps } from "./deps.js";
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
