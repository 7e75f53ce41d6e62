import type { SweepInput } from "../../../workflows/activities/sweep-types.js";
import { ensureIntervalSchedule } from "./ensure-schedule.js";

export const SWEEP_SCHEDULE_ID = "retention-sweep";

/** The retention sweep's schedule (hourly by default). */
export async function ensureSweepSchedule(
  address: string,
  namespace: string,
  taskQueue: string,
  intervalSeconds: number,
  input: SweepInput,
): Promise<void> {
  await ensureIntervalSchedule(address, namespace, {
    scheduleId: SWEEP_SCHEDULE_ID,
    workflowType: "retentionSweep",
    taskQueue,
    intervalSeconds,
    args: [input],
  });
}
