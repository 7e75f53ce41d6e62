import { Client, Connection, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from "@temporalio/client";

export interface IntervalSchedule {
  scheduleId: string;
  workflowType: string;
  taskQueue: string;
  intervalSeconds: number;
  args: unknown[];
}

/**
 * Creates a Temporal Schedule that starts a workflow at a fixed interval, or updates its interval
 * and arguments when it exists, so that every worker start converges on the configured ones.
 * Overlapping runs are skipped.
 */
export async function ensureIntervalSchedule(address: string, namespace: string, schedule: IntervalSchedule): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const client = new Client({ connection, namespace });
    const spec = { intervals: [{ every: `${schedule.intervalSeconds}s` }] };
    const action = { type: "startWorkflow" as const, workflowType: schedule.workflowType, taskQueue: schedule.taskQueue, args: schedule.args };
    try {
      await client.schedule.create({
        scheduleId: schedule.scheduleId,
        spec,
        action,
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
      });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      await client.schedule.getHandle(schedule.scheduleId).update((previous) => ({ ...previous, spec, action }));
    }
  } finally {
    await connection.close();
  }
}
