import { type ChainReport, GENESIS_HASH } from "../../domain/audit/chain/chain-link.js";
import { ChainVerifier } from "../../domain/audit/chain/chain-verifier.js";
import { nodeChainCrypto } from "./chain/chain-crypto.js";
import type { AuditChainReader, AuditCheckpointStore, AuditSigningKeys } from "./port.js";

/** What the chain's first entry follows: a range from the start must begin there (its first entries deleted show). */
const GENESIS = { sequence: 0, hash: GENESIS_HASH };

/** One call checks at most this many entries; the report's lastSequence says where to go on. */
export const MAX_VERIFY_ENTRIES = 1_000_000;
/** Links read per query: enough to amortise the round trip, one batch in memory at a time. */
const VERIFY_BATCH_SIZE = 5000;

export interface VerifyRange {
  /** 0 or 1: the start of the chain. */
  fromSequence: number;
  /** 0: the head. */
  toSequence: number;
}

export interface AuditTrailVerification extends ChainReport {
  anchoredThrough: number;
}

type VerifyDeps = { chain: AuditChainReader; checkpoints: AuditCheckpointStore; keys: Pick<AuditSigningKeys, "ring"> };

/**
 * Recomputes a range of the tenant's chain from the rows as stored now and checks it against the
 * signed checkpoints in the range: the first entry edited, removed, inserted or reordered, or a
 * tail cut off before a checkpoint, is named. The row before the range anchors it (a checkpoint in
 * the range pins it); rows never sealed are insertions wherever they are.
 */
export async function verifyAuditTrail(deps: VerifyDeps, tenantId: string, range: VerifyRange): Promise<AuditTrailVerification> {
  const head = await deps.chain.head(tenantId);
  const from = Math.max(1, range.fromSequence);
  const headSequence = head?.sequence ?? 0;
  const to = Math.min(range.toSequence === 0 ? headSequence : range.toSequence, headSequence, from + MAX_VERIFY_ENTRIES - 1);
  // A range that reaches the head keeps the checkpoints past it: a head rolled back with the tail
  // it cut off is still shorter than what was signed.
  const checkpoints = (await deps.checkpoints.from(tenantId, from)).filter((checkpoint) => to === headSequence || checkpoint.sequence <= to);
  const before = from > 1 ? (await deps.chain.links(tenantId, from - 2, from - 1, 1))[0] : undefined;
  const anchor = from > 1 ? before && { sequence: before.sequence!, hash: before.hash } : GENESIS;
  const verifier = new ChainVerifier(checkpoints, nodeChainCrypto(deps.keys.ring), anchor);
  for (let after = from - 1; after < to && !verifier.found; ) {
    const links = await deps.chain.links(tenantId, after, to, VERIFY_BATCH_SIZE);
    for (const link of links) verifier.push(link);
    if (links.length < VERIFY_BATCH_SIZE) break;
    after = links.at(-1)!.sequence!;
  }
  for (const unsealed of await deps.chain.unsealed(tenantId, 1)) verifier.push(unsealed);
  return { ...verifier.finish(), anchoredThrough: head?.anchoredThrough ?? 0 };
}
