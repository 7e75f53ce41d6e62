import { proxyActivities } from "@temporalio/workflow";
import type { AuditCheckpointActivities, AuditCheckpointsInput, AuditCheckpointsResult } from "./activities/audit-checkpoint-types.js";

/**
 * Run by a Temporal Schedule (hourly by default): signs the head of every tenant's audit chain
 * that moved since its newest checkpoint, a batch of tenants per activity, in tenant order. A
 * tenant whose chain does not verify is left unsigned (and logged) without holding up the rest.
 * Its result is the run's counts, visible in the Temporal UI.
 */
export async function auditCheckpoints(input: AuditCheckpointsInput): Promise<AuditCheckpointsResult> {
  const acts = proxyActivities<AuditCheckpointActivities>({
    startToCloseTimeout: "10 minutes",
    heartbeatTimeout: "1 minute",
    retry: { initialInterval: "1s", maximumInterval: "1 minute", maximumAttempts: 5 },
  });
  const result: AuditCheckpointsResult = { signed: 0, refused: 0, batches: 0 };
  let after: string | undefined;
  for (let batch = 0; batch < input.maxBatches; batch++) {
    const page = await acts.signPendingAuditCheckpoints(input.batchSize, after);
    result.signed += page.signed;
    result.refused += page.refused;
    result.batches++;
    after = page.next;
    if (page.scanned < input.batchSize || !after) break;
  }
  return result;
}
