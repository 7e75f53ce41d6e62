import type { Cursor } from "../../../domain/pagination.js";
import type { SweepDeps, SweepRun } from "./deps.js";
import { runActor } from "./run-actor.js";
import { deleteOwedCounted, type StorageDeleteCounts } from "./sweep-storage-delete.js";

/**
 * Retries one batch of owed storage deletes. Rows that failed earlier in this run (while being
 * expired) wait for the next run, so a run counts each row's failure once.
 */
export async function finishPendingStorageDeletes(
  deps: SweepDeps,
  batchSize: number,
  after: Cursor | undefined,
  run: SweepRun,
): Promise<StorageDeleteCounts & { scanned: number; finished: number; next?: Cursor }> {
  const pending = await deps.objects.pendingStorageDeletes(batchSize, after, run.correlationId);
  const counts = { storageDeleteFailures: 0, storageDeletesAbandoned: 0 };
  let finished = 0;
  for (const row of pending) {
    run.heartbeat(row.id);
    const ref = { tenantId: row.tenantId, objectId: row.id };
    if (await deleteOwedCounted(deps, ref, runActor(run, row.tenantId), counts, run)) finished++;
  }
  const last = pending.at(-1);
  return { scanned: pending.length, finished, ...counts, next: last && { at: last.deletedAt, id: last.id } };
}
