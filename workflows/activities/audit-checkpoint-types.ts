import type { PendingCheckpointsBatch } from "../../src/app/audit/checkpoints/sign-pending-checkpoints.js";

/** Shapes shared by the checkpoint workflow and its activity; workflows import types only. */

export interface AuditCheckpointsInput {
  /** Tenants per activity. */
  batchSize: number;
  /** Activities per run: a run signs at most batchSize × maxBatches tenants, the next run goes on. */
  maxBatches: number;
}

export interface AuditCheckpointsResult {
  signed: number;
  refused: number;
  batches: number;
}

export interface AuditCheckpointActivities {
  signPendingAuditCheckpoints(batchSize: number, afterTenantId?: string): Promise<PendingCheckpointsBatch>;
}
