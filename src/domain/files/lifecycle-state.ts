import type { RetentionPolicyName } from "./object-classes.js";
import type { DeleteReason, ObjectStatusName } from "./stored-object.js";

/**
 * What an object's workflow needs to know of its persisted row. Every step of the workflow
 * answers with this, read after the step's own write, so each decision follows from the
 * persisted state and never from whether a call was the first (activities and workflow tasks
 * run at least once).
 */
export interface LifecycleState {
  exists: boolean;
  deleted: boolean;
  held: boolean;
  status?: ObjectStatusName;
  objectClass?: string;
  ownerEntityType?: string;
  retentionPolicy?: RetentionPolicyName;
  /** ISO time; for a pending upload this is when it counts as abandoned. */
  retentionExpiresAt?: string;
  /** Why a deleted row was deleted. */
  deleteReason?: DeleteReason;
}

export type LifecyclePhase = "PENDING" | "SCANNING" | "SETTLED" | "GONE";

const RANK: Record<LifecyclePhase, number> = { PENDING: 0, SCANNING: 1, SETTLED: 2, GONE: 3 };

export function phaseOf(state: LifecycleState): LifecyclePhase {
  if (!state.exists || state.deleted) return "GONE";
  if (state.status === "PENDING_UPLOAD") return "PENDING";
  if (state.status === "SCANNING") return "SCANNING";
  return "SETTLED";
}

/**
 * Phases only move forward. Two reads that finish in another order than they started (an
 * Update's step racing the workflow's own) must not move an object back, so a read of an
 * earlier phase than the one known is an older read.
 */
export function isOlderThan(candidate: LifecycleState, known: LifecycleState): boolean {
  return RANK[phaseOf(candidate)] < RANK[phaseOf(known)];
}

const ENDED: Record<DeleteReason, string> = { USER_DELETED: "DELETED", EXPIRED: "EXPIRED", CHECKSUM_MISMATCH: "REMOVED_AFTER_MISMATCH" };

/**
 * The object's status as operators filter its runs by it (the search attribute ObjectStatus): the
 * row's status while it lives, then how it ended, so that a deleted photo no longer counts as
 * READY and an upload removed after a checksum mismatch no longer as PENDING_UPLOAD.
 */
export function operatorStatusOf(state: LifecycleState): string {
  if (phaseOf(state) !== "GONE") return state.status ?? "";
  return state.deleteReason ? ENDED[state.deleteReason] : "DELETED";
}
