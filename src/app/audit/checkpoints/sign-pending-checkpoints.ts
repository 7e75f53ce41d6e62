import { isAppError } from "../../../domain/errors.js";
import type { CheckpointDeps } from "./checkpoint-deps.js";
import { signChainHead } from "./sign-chain-head.js";

export interface PendingCheckpointsBatch {
  /** Tenants whose head got a checkpoint now. */
  signed: number;
  /** Tenants whose chain does not verify: nothing signed, told to `deps.brokenChain`. */
  refused: number;
  /** Tenants read: fewer than the batch size means none is left after this batch. */
  scanned: number;
  /** The last tenant of the batch: the next batch starts after it. */
  next?: string;
}

/**
 * Signs the head of up to `batchSize` tenants whose chain moved since their newest checkpoint,
 * after `afterTenantId`. A broken chain refuses its own tenant only and the batch goes on; any
 * other error (the database gone) ends the batch, which can run again: heads signed meanwhile
 * are simply not listed again.
 */
export async function signPendingCheckpoints(
  deps: CheckpointDeps,
  batchSize: number,
  afterTenantId?: string,
  progress?: () => void,
): Promise<PendingCheckpointsBatch> {
  const tenants = await deps.checkpoints.tenantsToCheckpoint(batchSize, afterTenantId);
  const batch: PendingCheckpointsBatch = { signed: 0, refused: 0, scanned: tenants.length, next: tenants.at(-1) };
  for (const tenantId of tenants) {
    try {
      if ((await signChainHead(deps, tenantId, progress)).created) batch.signed++;
    } catch (error) {
      if (!isAppError(error) || error.reason !== "AUDIT_CHAIN_BROKEN") throw error;
      batch.refused++;
    }
    progress?.();
  }
  return batch;
}
