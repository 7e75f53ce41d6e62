import { Client, Connection, ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type ScheduleHandle } from "@temporalio/client";
import { decideSchedule, type ScheduleDecision, type StoredSchedule } from "../../domain/schedules/schedule-ownership.js";

export interface IntervalSchedule {
  scheduleId: string;
  workflowType: string;
  taskQueue: string;
  intervalSeconds: number;
  args: unknown[];
  /** The deployment claiming it (its main task queue), kept in the schedule's memo. */
  owner: string;
}

/** What a worker did with the schedule, and whose it is afterwards. */
export interface ScheduleOutcome {
  decision: ScheduleDecision;
  stored?: StoredSchedule;
}

/**
 * Creates a Temporal Schedule that starts a workflow at a fixed interval when it is absent, and
 * updates its interval and arguments only when this deployment owns it, so replicas converge on
 * one deployment's settings and another deployment in the namespace never re-points it.
 * Overlapping runs are skipped.
 */
export async function ensureIntervalSchedule(address: string, namespace: string, schedule: IntervalSchedule): Promise<ScheduleOutcome> {
  const connection = await Connection.connect({ address });
  try {
    const client = new Client({ connection, namespace });
    const handle = client.schedule.getHandle(schedule.scheduleId);
    const spec = { intervals: [{ every: `${schedule.intervalSeconds}s` }] };
    const action = { type: "startWorkflow" as const, workflowType: schedule.workflowType, taskQueue: schedule.taskQueue, args: schedule.args };
    const claimant = { owner: schedule.owner, taskQueue: schedule.taskQueue };
    let stored = await readStored(handle);
    let decision = decideSchedule(stored, claimant);
    if (decision === "create") {
      try {
        await client.schedule.create({ scheduleId: schedule.scheduleId, spec, action, memo: { owner: schedule.owner }, policies: { overlap: ScheduleOverlapPolicy.SKIP } });
        return { decision };
      } catch (error) {
        if (!(error instanceof ScheduleAlreadyRunning)) throw error;
        // Another worker created it meanwhile: what it stored decides.
        stored = await readStored(handle);
        decision = stored === undefined ? "leave" : decideSchedule(stored, claimant);
      }
    }
    if (decision === "update") await handle.update((previous) => ({ ...previous, spec, action }));
    return { decision, stored };
  } finally {
    await connection.close();
  }
}

export async function readStored(handle: ScheduleHandle): Promise<StoredSchedule | undefined> {
  try {
    const description = await handle.describe();
    const owner = description.memo?.owner;
    const taskQueue = description.action.type === "startWorkflow" ? description.action.taskQueue : "";
    return { owner: typeof owner === "string" ? owner : undefined, taskQueue };
  } catch (error) {
    if (error instanceof ScheduleNotFoundError) return undefined;
    throw error;
  }
}
