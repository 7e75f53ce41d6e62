import type { Actor, StoredObjectView } from "../../domain/files/stored-object.js";
import { findOrFail, type FileStorageDeps } from "./deps.js";

export interface CompleteInput {
  objectId: string;
  checksum?: string;
  waitForResult: boolean;
}

const ended = (object: StoredObjectView) => object.status === "READY" || object.status === "REJECTED";

/**
 * Complete is an Update of the object's workflow, so the answer is synchronous. Calling it again
 * returns the object as it is. With waitForResult the answer waits for the scan (bounded).
 */
export async function completeUpload(deps: FileStorageDeps, actor: Actor, input: CompleteInput): Promise<StoredObjectView> {
  const current = await findOrFail(deps, actor, input.objectId);
  const ref = { tenantId: actor.tenantId, objectId: input.objectId };
  let object =
    current.status === "PENDING_UPLOAD"
      ? await deps.lifecycle.complete(ref, { checksum: input.checksum || undefined, actorId: actor.actorId, requestId: actor.requestId })
      : current;
  if (input.waitForResult && !ended(object)) {
    const settled = await deps.lifecycle.awaitScan(ref, deps.completeWaitTimeoutSeconds * 1000);
    object = settled ?? (await findOrFail(deps, actor, input.objectId));
  }
  return object;
}
