import { retentionDeadline, type RetentionDurations } from "./retention.js";

/**
 * When a photo or logo that stopped being its owner's current file may be removed: it is kept
 * under SUPERSEDED_30D from the moment it was replaced, so a restore can bring it back until then.
 */
export function supersededDeadline(now: Date, durations: RetentionDurations): Date {
  return retentionDeadline("SUPERSEDED_30D", now, durations)!;
}
