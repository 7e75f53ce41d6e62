import { Context } from "@temporalio/activity";
import type { CheckpointDeps } from "../../src/app/audit/checkpoints/checkpoint-deps.js";
import { signPendingCheckpoints } from "../../src/app/audit/checkpoints/sign-pending-checkpoints.js";
import type { AuditCheckpointActivities } from "./audit-checkpoint-types.js";

export function createAuditCheckpointActivities(deps: CheckpointDeps): AuditCheckpointActivities {
  return {
    // Heartbeats between tenants and verification ranges: a long verification is not a dead worker.
    signPendingAuditCheckpoints: (batchSize, afterTenantId) => signPendingCheckpoints(deps, batchSize, afterTenantId, () => Context.current().heartbeat()),
  };
}
