import { proxyActivities } from "@temporalio/workflow";
import type { StorageDeleteCounts, SweepActivities, SweepBatch, SweepCursor, SweepInput, SweepResult } from "./activities/sweep-types.js";

/**
 * The safety net behind each object's own timer, run by a Temporal Schedule (hourly by default)
 * in batches: rows whose deadline passed but whose workflow is gone, deletes where only the
 * storage delete failed, objects whose scan should have ended long ago (their workflows are told
 * to act again), and bucket objects that no live row owns. Each phase pages with a keyset cursor
 * in a stable order and reads at most `maxBatches` batches, so rows it leaves alone (their
 * workflow still runs, their delete failed) never hide the rows after them. A storage delete that
 * fails is counted on its row and the run goes on. Its result is the run's counts, visible in
 * the Temporal UI.
 */
export async function retentionSweep(input: SweepInput): Promise<SweepResult> {
  const acts = proxyActivities<SweepActivities>({
    startToCloseTimeout: "5 minutes",
    heartbeatTimeout: "1 minute",
    retry: { initialInterval: "1s", maximumInterval: "1 minute", maximumAttempts: 5 },
  });
  const result: SweepResult = {
    expired: 0,
    storageDeletesFinished: 0,
    storageDeleteFailures: 0,
    storageDeletesAbandoned: 0,
    scansRedriven: 0,
    orphansRemoved: 0,
    batches: 0,
  };
  const count = (batch: StorageDeleteCounts) => {
    result.storageDeleteFailures += batch.storageDeleteFailures;
    result.storageDeletesAbandoned += batch.storageDeletesAbandoned;
    result.batches++;
  };
  await pages(input, (after) => acts.expireOverdueRows(input.batchSize, after), (batch) => {
    result.expired += batch.expired;
    count(batch);
  });
  await pages(input, (after) => acts.finishPendingStorageDeletes(input.batchSize, after), (batch) => {
    result.storageDeletesFinished += batch.finished;
    count(batch);
  });
  // One batch: a stuck scan is rare, and a re-driven one gets the next run to finish.
  result.scansRedriven = await acts.redriveStuckScans(input.batchSize);
  result.batches++;
  let startAfter: string | undefined;
  for (let batch = 0; batch < input.maxBatches; batch++) {
    const page = await acts.removeOrphanObjects(startAfter, input.orphanMinAgeSeconds);
    result.orphansRemoved += page.removed;
    result.storageDeleteFailures += page.failed;
    result.batches++;
    startAfter = page.nextStartAfter;
    if (!startAfter) break;
  }
  return result;
}

/** At most `maxBatches` batches, each after the last row of the one before. */
async function pages<B extends SweepBatch>(input: SweepInput, read: (after?: SweepCursor) => Promise<B>, add: (batch: B) => void): Promise<void> {
  let after: SweepCursor | undefined;
  for (let batch = 0; batch < input.maxBatches; batch++) {
    const page = await read(after);
    add(page);
    after = page.next;
    if (page.scanned < input.batchSize || !after) return;
  }
}
