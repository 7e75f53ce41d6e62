import type { ChainProblem } from "../../../domain/audit/chain/chain-link.js";
import { MAX_VERIFY_ENTRIES, verifyAuditTrail } from "../verify-audit-trail.js";
import type { CheckpointDeps } from "./checkpoint-deps.js";

/** The hash at the sequence to be signed, as the verification recomputed it, or why there is none. */
export type BeforeSigning = { hash: string; problem?: undefined } | { problem: ChainProblem };

/**
 * Verifies the chain from `fromSequence` (the newest checkpoint's, so that it pins the start, or
 * 1) through `throughSequence` (the head to be signed), in ranges of at most MAX_VERIFY_ENTRIES,
 * each anchored on the entry before it. `progress` is called between ranges (an activity's
 * heartbeat). The hash answered is the stored one of the entry at `throughSequence`, which the
 * walk recomputed: what is signed is what was verified, whatever the head read before said.
 */
export async function verifyBeforeSigning(
  deps: CheckpointDeps,
  tenantId: string,
  fromSequence: number,
  throughSequence: number,
  progress?: () => void,
): Promise<BeforeSigning> {
  for (let start = fromSequence; ; ) {
    const report = await verifyAuditTrail(deps, tenantId, { fromSequence: start, toSequence: throughSequence });
    if (!report.intact) return { problem: report.problem! };
    const last = Math.max(report.lastSequence, start - 1);
    if (last >= throughSequence) break;
    // A range stops short of its bound only where the entries run out before the head.
    if (last < start + MAX_VERIFY_ENTRIES - 1) return { problem: cutOff(last, throughSequence) };
    start = last + 1;
    progress?.();
  }
  const [link] = await deps.chain.links(tenantId, throughSequence - 1, throughSequence, 1);
  return link ? { hash: link.hash } : { problem: cutOff(throughSequence - 1, throughSequence) };
}

function cutOff(last: number, head: number): ChainProblem {
  const range = head > last + 1 ? `entries ${last + 1} to ${head} were` : `entry ${head} was`;
  return { kind: "TRUNCATED", sequence: last + 1, message: `the chain ends at sequence ${last} but its head is at ${head}: ${range} removed` };
}
