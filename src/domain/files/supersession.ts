import { retentionDeadline, type RetentionDurations } from "./retention.js";

/**
 * When a photo or logo that stopped being its owner's current file may be removed: it is kept
 * under SUPERSEDED_30D from the moment it was replaced, so a restore can bring it back until then.
 */
export function supersededDeadline(now: Date, durations: RetentionDurations): Date {
  return retentionDeadline("SUPERSEDED_30D", now, durations)!;
}

/** What a restore decides from: the row as persisted, read under its lock. */
export interface RestoreCandidate {
  objectClass: string;
  status: string;
  retentionPolicy: string;
  isCurrent: boolean;
  deleted: boolean;
}

/**
 * Only a superseded photo or logo that still exists can become current again. Checked on the
 * locked row, not on an earlier read: an expiry committed in between must win, or a deleted row
 * would be made current.
 */
export function isRestorable(candidate: RestoreCandidate, replaceable: boolean): boolean {
  return replaceable && !candidate.deleted && !candidate.isCurrent && candidate.status === "READY" && candidate.retentionPolicy === "SUPERSEDED_30D";
}
