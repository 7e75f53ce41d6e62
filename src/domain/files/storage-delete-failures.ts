/**
 * What a storage delete that failed in one more sweep run is worth telling: its first failure
 * (audited, so the trail shows the bytes outlived the row), and the run that reaches the limit,
 * after which the sweep stops trying and the row waits for an operator (audited, and counted by
 * the `storage_deletes_failing{state="abandoned"}` gauge). The runs in between are only logged
 * and counted: one entry a run for a delete that fails for weeks would bury the trail.
 */
export type StorageDeleteNotice = "FIRST_FAILURE" | "ABANDONED";

/**
 * `failedRuns` counts the run that just failed. An abandoned row is never tried again, so the run
 * that reaches the limit is the only one to answer ABANDONED (with a limit of 1, the first too).
 */
export function storageDeleteNotice(failedRuns: number, maxFailedRuns: number): StorageDeleteNotice | undefined {
  if (storageDeleteAbandoned(failedRuns, maxFailedRuns)) return "ABANDONED";
  if (failedRuns === 1) return "FIRST_FAILURE";
  return undefined;
}

/** Whether a row that failed `failedRuns` times is left to an operator. */
export function storageDeleteAbandoned(failedRuns: number, maxFailedRuns: number): boolean {
  return failedRuns >= maxFailedRuns;
}

/** The audit reason of each notice, as `details.reason` of the failed delete's entry. */
export const STORAGE_DELETE_REASONS: Record<StorageDeleteNotice, string> = {
  FIRST_FAILURE: "STORAGE_DELETE_FAILED",
  ABANDONED: "STORAGE_DELETE_ABANDONED",
};
