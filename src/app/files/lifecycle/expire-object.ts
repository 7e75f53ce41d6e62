import { type Actor, SYSTEM_ACTOR_ID } from "../../../domain/actor.js";
import { isExpired } from "../../../domain/files/retention.js";
import type { ObjectRef } from "../../../domain/files/object-ref.js";
import type { LifecyclePorts } from "./deps.js";
import type { LifecycleObjects } from "./port.js";
import { loadLifecycleState, type StepOutcome } from "./step-outcome.js";
import { finishStorageDelete } from "./storage-delete.js";

/**
 * The object's deadline timer fired (or the sweep found it overdue): expire it if the one rule,
 * `isExpired`, holds for the row under its lock. Answers whether it expired now and the state.
 * `correlationId` names the timer's workflow run (the sweep's or the object's own).
 */
export async function expireObject(
  ports: Pick<LifecyclePorts, "objects" | "storage" | "now" | "multipartAborted">,
  ref: ObjectRef,
  correlationId: string,
): Promise<StepOutcome & { expired: boolean }> {
  const actor = { tenantId: ref.tenantId, actorId: SYSTEM_ACTOR_ID, correlationId };
  const expired = await expireRow(ports, ref, actor);
  await finishStorageDelete(ports, ref, actor);
  if (expired) await abortAbandonedParts(ports, ref);
  return { ...(await loadLifecycleState(ports, ref)), expired };
}

/**
 * An abandoned multipart upload leaves parts that no object ever holds: they go with it. Looked up
 * by key (one listing, empty for a single PUT); were it to fail, the sweep aborts them once stale.
 */
async function abortAbandonedParts(ports: Pick<LifecyclePorts, "objects" | "storage" | "multipartAborted">, ref: ObjectRef): Promise<void> {
  const record = await ports.objects.findRecord(ref.tenantId, ref.objectId);
  if (record?.status !== "PENDING_UPLOAD") return;
  const aborted = await ports.storage.abortMultipart(record.storageKey);
  // A retry after the abort finds nothing left to abort: an abort is counted at most once.
  if (aborted > 0) await ports.multipartAborted?.(aborted);
}

/**
 * Soft-deletes the row if `isExpired` holds for it under its lock; the bucket object is left to
 * the caller. Repeating it changes nothing: an expired row is deleted, and no longer due.
 */
export async function expireRow(ports: { objects: Pick<LifecycleObjects, "expire">; now(): Date }, ref: ObjectRef, actor: Actor): Promise<boolean> {
  const now = ports.now();
  return ports.objects.expire(actor, ref.objectId, now, (candidate) => isExpired(candidate, now));
}
