import type { SweepInput } from "../../../workflows/activities/sweep-types.js";
import { ensureIntervalSchedule, type ScheduleOutcome } from "./ensure-schedule.js";

export const SWEEP_SCHEDULE_ID = "retention-sweep";

/** The retention sweep's schedule (hourly by default), owned by the deployment `owner`. */
export async function ensureSweepSchedule(
  address: string,
  namespace: string,
  taskQueue: string,
  intervalSeconds: number,
  input: SweepInput,
  owner: string,
): Promise<ScheduleOutcome> {
  return ensureIntervalSchedule(address, namespace, {
    scheduleId: SWEEP_SCHEDULE_ID,
    workflowType: "retentionSweep",
    taskQueue,
    intervalSeconds,
    args: [input],
    owner,
  });
}
