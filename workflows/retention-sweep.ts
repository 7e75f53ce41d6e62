import { proxyActivities } from "@temporalio/workflow";
import type { SweepActivities, SweepInput, SweepResult } from "./activities/sweep-types.js";

/**
 * The safety net behind each object's own timer, run by a Temporal Schedule (hourly by default)
 * in batches: rows whose deadline passed but whose workflow is gone, deletes where only the
 * storage delete failed, and bucket objects that no live row owns. Its result is the run's
 * counts, visible in the Temporal UI.
 */
export async function retentionSweep(input: SweepInput): Promise<SweepResult> {
  const acts = proxyActivities<SweepActivities>({
    startToCloseTimeout: "5 minutes",
    heartbeatTimeout: "1 minute",
    retry: { initialInterval: "1s", maximumInterval: "1 minute", maximumAttempts: 5 },
  });
  const result: SweepResult = { expired: 0, storageDeletesFinished: 0, orphansRemoved: 0, batches: 0 };
  for (let batch = 0; batch < input.maxBatches; batch++) {
    const expired = await acts.expireOverdueRows(input.batchSize);
    result.expired += expired.expired;
    result.batches++;
    if (expired.scanned < input.batchSize) break;
  }
  for (let batch = 0; batch < input.maxBatches; batch++) {
    const finished = await acts.finishPendingStorageDeletes(input.batchSize);
    result.storageDeletesFinished += finished;
    result.batches++;
    if (finished < input.batchSize) break;
  }
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
