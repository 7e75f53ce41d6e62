import { proxyActivities } from "@temporalio/workflow";
import type { OverdueCursor, SweepActivities, SweepInput, SweepResult } from "./activities/sweep-types.js";

/**
 * The safety net behind each object's own timer, run by a Temporal Schedule (hourly by default)
 * in batches: rows whose deadline passed but whose workflow is gone, deletes where only the
 * storage delete failed, objects whose scan should have ended long ago (their workflows are told
 * to act again), and bucket objects that no live row owns. Its result is the run's
 * counts, visible in the Temporal UI.
 */
export async function retentionSweep(input: SweepInput): Promise<SweepResult> {
  const acts = proxyActivities<SweepActivities>({
    startToCloseTimeout: "5 minutes",
    heartbeatTimeout: "1 minute",
    retry: { initialInterval: "1s", maximumInterval: "1 minute", maximumAttempts: 5 },
  });
  const result: SweepResult = { expired: 0, storageDeletesFinished: 0, scansRedriven: 0, orphansRemoved: 0, batches: 0 };
  let cursor: OverdueCursor | undefined;
  for (let batch = 0; batch < input.maxBatches; batch++) {
    const expired = await acts.expireOverdueRows(input.batchSize, cursor);
    result.expired += expired.expired;
    result.batches++;
    cursor = expired.next;
    if (expired.scanned < input.batchSize) break;
  }
  for (let batch = 0; batch < input.maxBatches; batch++) {
    const finished = await acts.finishPendingStorageDeletes(input.batchSize);
    result.storageDeletesFinished += finished;
    result.batches++;
    if (finished < input.batchSize) break;
  }
  // One batch: a stuck scan is rare, and a re-driven one gets the next run to finish.
  result.scansRedriven = await acts.redriveStuckScans(input.batchSize);
  result.batches++;
  let startAfter: string | undefined;
  for (let batch = 0; batch < input.maxBatches; batch++) {
    const page = await acts.removeOrphanObjects(startAfter, input.orphanMinAgeSeconds);
    result.orphansRemoved += page.removed;
    result.batches++;
    startAfter = page.nextStartAfter;
    if (!startAfter) break;
  }
  return result;
}
