import type { Cursor } from "../../../domain/pagination.js";
import { expireRow } from "../lifecycle/expire-object.js";
import type { SweepDeps, SweepRun } from "./deps.js";
import { runActor } from "./run-actor.js";
import { deleteOwedCounted, type StorageDeleteCounts } from "./sweep-storage-delete.js";

/**
 * Expires one batch of overdue rows whose workflow is gone (a running workflow expires its own
 * object), then removes their bucket objects. Answers a keyset cursor: rows left alone are not
 * selected again in this run.
 */
export async function expireOverdueRows(
  deps: SweepDeps,
  batchSize: number,
  after: Cursor | undefined,
  run: SweepRun,
): Promise<StorageDeleteCounts & { scanned: number; expired: number; next?: Cursor }> {
  const overdue = await deps.objects.overdue(deps.now(), batchSize, after);
  const counts = { storageDeleteFailures: 0, storageDeletesAbandoned: 0 };
  let expired = 0;
  for (const row of overdue) {
    run.heartbeat(row.id);
    const ref = { tenantId: row.tenantId, objectId: row.id };
    if (await deps.workflowRunning(ref)) continue;
    const actor = runActor(run, row.tenantId);
    // A retried activity finds the row already expired (no longer due): nothing twice.
    if (await expireRow(deps, ref, actor)) expired++;
    await deleteOwedCounted(deps, ref, actor, counts, run);
  }
  const last = overdue.at(-1);
  return { scanned: overdue.length, expired, ...counts, next: last && { at: new Date(last.retentionExpiresAt!), id: last.id } };
}
