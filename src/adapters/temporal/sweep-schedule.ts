import { Client, Connection, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from "@temporalio/client";
import type { SweepInput } from "../../../workflows/activities/sweep-types.js";

export const SWEEP_SCHEDULE_ID = "retention-sweep";

/**
 * Creates the sweep's Temporal Schedule, or updates its interval when it exists, so that every
 * worker start converges on the configured one. Overlapping runs are skipped.
 */
export async function ensureSweepSchedule(
  address: string,
  namespace: string,
  taskQueue: string,
  intervalSeconds: number,
  input: SweepInput,
): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const client = new Client({ connection, namespace });
    const spec = { intervals: [{ every: `${intervalSeconds}s` }] };
    const action = { type: "startWorkflow" as const, workflowType: "retentionSweep", taskQueue, args: [input] };
    try {
      await client.schedule.create({
        scheduleId: SWEEP_SCHEDULE_ID,
        spec,
        action,
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
      });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      await client.schedule.getHandle(SWEEP_SCHEDULE_ID).update((previous) => ({ ...previous, spec, action }));
    }
  } finally {
    await connection.close();
  }
}
