import type { AuditCheckpointsInput } from "../../../workflows/activities/audit-checkpoint-types.js";
import { ensureIntervalSchedule, type ScheduleOutcome } from "./ensure-schedule.js";

export const AUDIT_CHECKPOINT_SCHEDULE_ID = "audit-checkpoints";

/** The audit checkpoints' schedule (hourly by default), owned by the deployment `owner`. */
export async function ensureAuditCheckpointSchedule(
  address: string,
  namespace: string,
  taskQueue: string,
  intervalSeconds: number,
  input: AuditCheckpointsInput,
  owner: string,
): Promise<ScheduleOutcome> {
  return ensureIntervalSchedule(address, namespace, {
    scheduleId: AUDIT_CHECKPOINT_SCHEDULE_ID,
    workflowType: "auditCheckpoints",
    taskQueue,
    intervalSeconds,
    args: [input],
    owner,
  });
}
