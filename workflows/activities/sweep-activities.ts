import { Context } from "@temporalio/activity";
import type { SweepDeps, SweepRun } from "../../src/app/files/sweep/deps.js";
import { expireOverdueRows } from "../../src/app/files/sweep/expire-overdue-rows.js";
import { finishPendingStorageDeletes } from "../../src/app/files/sweep/finish-pending-storage-deletes.js";
import { redriveStuckScans } from "../../src/app/files/sweep/redrive-stuck-scans.js";
import { abortStaleMultipartUploads } from "../../src/app/files/sweep/abort-stale-multipart-uploads.js";
import { removeOrphanObjects } from "../../src/app/files/sweep/remove-orphan-objects.js";
import type { Cursor } from "../../src/domain/pagination.js";
import { workflowCorrelation } from "./activity-correlation.js";
import type { SweepActivities, SweepCursor } from "./sweep-types.js";

/** The run of the current activity: its workflow's correlation, its heartbeat and its log. */
function currentRun(): SweepRun {
  const context = Context.current();
  return {
    correlationId: workflowCorrelation(),
    heartbeat: (detail) => context.heartbeat(detail),
    warn: (message, fields) => context.log.warn(message, fields),
  };
}

// Cursors cross the workflow history as ISO strings.
const fromHistory = (cursor?: SweepCursor): Cursor | undefined => cursor && { at: new Date(cursor.at), id: cursor.id };
const toHistory = (cursor?: Cursor): SweepCursor | undefined => cursor && { at: cursor.at.toISOString(), id: cursor.id };

async function abortAllStaleMultipartUploads(deps: SweepDeps, run: SweepRun): Promise<void> {
  let after: { key: string; uploadId: string } | undefined;
  let aborted = 0;
  do {
    const page = await abortStaleMultipartUploads(deps, after, run);
    aborted += page.aborted;
    after = page.next;
  } while (after);
  await deps.multipartAborted?.(aborted);
}

/** The retention sweep's activities: thin wrappers over the use cases in src/app/files/sweep. */
export function createSweepActivities(deps: SweepDeps): SweepActivities {
  return {
    async expireOverdueRows(batchSize, after) {
      const { next, ...batch } = await expireOverdueRows(deps, batchSize, fromHistory(after), currentRun());
      return { ...batch, next: toHistory(next) };
    },
    redriveStuckScans: (batchSize) => redriveStuckScans(deps, batchSize, currentRun()),
    async finishPendingStorageDeletes(batchSize, after) {
      const { next, ...batch } = await finishPendingStorageDeletes(deps, batchSize, fromHistory(after), currentRun());
      return { ...batch, next: toHistory(next) };
    },
    async removeOrphanObjects(startAfter, minAgeSeconds) {
      // Incomplete multipart uploads are orphans too (parts no object holds): aborted on the
      // run's first page, inside this activity, so that the sweep workflow's history keeps its shape.
      if (startAfter === undefined) await abortAllStaleMultipartUploads(deps, currentRun());
      return removeOrphanObjects(deps, startAfter, minAgeSeconds, currentRun());
    },
  };
}
