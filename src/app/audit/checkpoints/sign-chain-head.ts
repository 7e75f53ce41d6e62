import { parseCanonical } from "../../../domain/audit/chain/canonical-entry.js";
import type { ChainProblem, Checkpoint } from "../../../domain/audit/chain/chain-link.js";
import { isOwnEntryOf } from "../../../domain/audit/chain/checkpoint-entry.js";
import { AppError } from "../../../domain/errors.js";
import type { CheckpointDeps } from "./checkpoint-deps.js";
import { signCheckpoint } from "./sign-checkpoint.js";
import { verifyBeforeSigning } from "./verify-before-signing.js";

export interface SignedHead {
  /** The checkpoint now covering the head; none while the tenant has no audit entry. */
  checkpoint?: Checkpoint;
  /**
   * False when the newest checkpoint already covered the head, nothing but its own entry
   * following it (or another signer stored it first).
   */
  created: boolean;
}

/**
 * Signs the head of one tenant's chain, once the entries since the newest checkpoint verify.
 * Storing a checkpoint writes its own audit entry, which moves the head one past it: a head
 * with nothing else after the newest checkpoint counts as signed. Safe to run again and
 * concurrently: a head already signed answers its checkpoint, and two signers of one head store
 * one checkpoint and one entry (the first; the other gets it back).
 */
export async function signChainHead(deps: CheckpointDeps, tenantId: string, progress?: () => void): Promise<SignedHead> {
  const [head, latest] = await Promise.all([deps.chain.head(tenantId), deps.checkpoints.latest(tenantId)]);
  if (!head || head.sequence === 0 || (latest && (await coversHead(deps, tenantId, head.sequence, latest)))) return { checkpoint: latest, created: false };
  const verified = await verifyBeforeSigning(deps, tenantId, latest?.sequence ?? 1, head.sequence, progress);
  if (verified.problem) {
    deps.brokenChain?.(tenantId, verified.problem);
    throw brokenChain(verified.problem);
  }
  const signed = signCheckpoint(deps.keys.current, tenantId, head.sequence, verified.hash, deps.now());
  const stored = await deps.checkpoints.insert(signed);
  return { checkpoint: stored, created: stored.signature === signed.signature && stored.signedAt.getTime() === signed.signedAt.getTime() };
}

/**
 * Whether `latest` leaves no entry of the head unsigned (src/domain/audit/chain/checkpoint-entry.ts).
 * The entry after it is read only when it is the head: its canonical form says whose entry it
 * is. An own entry edited into something else is then an entry to sign, and verifying before
 * signing finds the edit.
 */
async function coversHead(deps: CheckpointDeps, tenantId: string, headSequence: number, latest: Checkpoint): Promise<boolean> {
  if (headSequence !== latest.sequence + 1) return headSequence <= latest.sequence;
  const [next] = await deps.chain.links(tenantId, latest.sequence, headSequence, 1);
  const fields = next && parseCanonical(next.canonical);
  return fields !== undefined && isOwnEntryOf(fields, latest.sequence);
}

function brokenChain(problem: ChainProblem): AppError {
  return new AppError("AUDIT_CHAIN_BROKEN", `no checkpoint signed: the audit chain does not verify: ${problem.message}`, {
    metadata: { kind: problem.kind, sequence: String(problem.sequence), ...(problem.entryId ? { entryId: problem.entryId } : {}) },
  });
}
