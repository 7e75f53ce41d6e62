import { SYSTEM_ACTOR_ID } from "../../actor.js";
import type { AuditActionName } from "../../files/stored-object.js";
import type { Checkpoint } from "./chain-link.js";

/**
 * A signed checkpoint is itself an audit entry of its tenant (AUDIT_CHECKPOINT_SIGNED), written
 * in the transaction that stores the checkpoint and chained like every entry: searchable, in
 * every export, and an `audit_checkpoint.signed` webhook event, so an auditor can keep the
 * checkpoints off-site as they are signed.
 */
export const CHECKPOINT_ACTION = "AUDIT_CHECKPOINT_SIGNED" satisfies AuditActionName;

/** The object id of an entry that concerns no object (object_id is `uuid not null`). */
export const NO_OBJECT_ID = "00000000-0000-0000-0000-000000000000";

/** The entry's correlation id is this prefix and the checkpoint's sequence. */
export const CHECKPOINT_CORRELATION_PREFIX = "checkpoint:";

/** The fields of a checkpoint's own entry, but its id (the store's). */
export interface CheckpointEntry {
  tenantId: string;
  objectId: string;
  action: typeof CHECKPOINT_ACTION;
  actorId: string;
  result: "SUCCESS";
  correlationId: string;
  details: { sequence: number; hash: string; keyId: string; signedAt: string; signature: string };
  occurredAt: Date;
}

export function checkpointEntry(checkpoint: Checkpoint): CheckpointEntry {
  const { tenantId, sequence, hash, keyId, signedAt, signature } = checkpoint;
  return {
    tenantId,
    objectId: NO_OBJECT_ID,
    action: CHECKPOINT_ACTION,
    actorId: SYSTEM_ACTOR_ID,
    result: "SUCCESS",
    correlationId: `${CHECKPOINT_CORRELATION_PREFIX}${sequence}`,
    details: { sequence, hash, keyId, signedAt: signedAt.toISOString(), signature },
    occurredAt: signedAt,
  };
}

/** Whether an entry (its action and correlation id) is the own entry of the checkpoint at `checkpointSequence`. */
export function isOwnEntryOf(entry: { action: string; correlationId: string }, checkpointSequence: number): boolean {
  return entry.action === CHECKPOINT_ACTION && entry.correlationId === `${CHECKPOINT_CORRELATION_PREFIX}${checkpointSequence}`;
}

/**
 * Entries past the newest checkpoint that no checkpoint signs yet. The checkpoint's own entry,
 * when it is the very next one, does not count: signing it would write another entry right after
 * it, and the schedule would sign forever. It is signed with whatever entry comes next; until
 * then the chain up to it verifies from the checkpoint on (VerifyAuditTrail). An own entry
 * sealed later than that (another writer committed in between) counts like any entry: the one
 * before it is unsigned anyway.
 */
export function unsignedEntries(headSequence: number, checkpoint?: { sequence: number; ownEntryNext: boolean }): number {
  if (!checkpoint) return headSequence;
  const past = headSequence - checkpoint.sequence;
  return checkpoint.ownEntryNext ? past - 1 : past;
}
