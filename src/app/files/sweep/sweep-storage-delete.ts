import type { Actor } from "../../../domain/actor.js";
import type { ObjectRef } from "../../../domain/files/object-ref.js";
import { deleteOwedObject } from "../lifecycle/storage-delete.js";
import type { SweepDeps, SweepRun } from "./deps.js";

export type SweptDelete = "deleted" | "failed" | "abandoned" | "not-owed";

/** How a batch's storage deletes went: failed ones are recorded on their rows, not thrown. */
export interface StorageDeleteCounts {
  storageDeleteFailures: number;
  storageDeletesAbandoned: number;
}

/**
 * The sweep's storage delete: a failure is not thrown (one bucket object that cannot be removed
 * must not stop the rest of the run) but counted on the row, once per sweep run (the actor's
 * correlation), which gives up after `maxFailedRuns` runs; the row's first failure and the
 * give-up are audited (see domain/files/storage-delete-failures.ts).
 */
export async function sweepStorageDelete(
  ports: Pick<SweepDeps, "objects" | "storage" | "now">,
  ref: ObjectRef,
  actor: Actor,
  maxFailedRuns: number,
): Promise<{ outcome: SweptDelete; error?: Error }> {
  const attempt = await deleteOwedObject(ports, ref);
  if (!attempt) return { outcome: "not-owed" };
  if (!attempt.error) return { outcome: "deleted" };
  const recorded = await ports.objects.recordStorageDeleteFailure(actor, ref.objectId, { message: attempt.error.message, maxFailedRuns, at: ports.now() });
  return { outcome: recorded?.abandoned ? "abandoned" : "failed", error: attempt.error };
}

/** One row's storage delete in a batch: a failure is logged and counted, never thrown. */
export async function deleteOwedCounted(deps: SweepDeps, ref: ObjectRef, actor: Actor, counts: StorageDeleteCounts, run: SweepRun): Promise<boolean> {
  const { outcome, error } = await sweepStorageDelete(deps, ref, actor, deps.storageDeleteMaxFailedRuns);
  if (outcome === "failed" || outcome === "abandoned") {
    counts.storageDeleteFailures++;
    if (outcome === "abandoned") counts.storageDeletesAbandoned++;
    run.warn("storage delete failed; the row keeps it owed", { ...ref, outcome, error: error?.message });
  }
  return outcome === "deleted";
}
