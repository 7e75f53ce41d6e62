import { Client, Connection, ScheduleNotFoundError } from "@temporalio/client";
import { decideSchedule, type ScheduleClaimant, type StoredSchedule } from "../../domain/schedules/schedule-ownership.js";
import { readStored } from "./ensure-schedule.js";

export interface RetiredSchedule {
  decision: "deleted" | "absent" | "leave";
  stored?: StoredSchedule;
}

/**
 * Deletes a schedule this deployment owns and no longer wants (one an earlier version created);
 * another deployment's is left alone, as ensureIntervalSchedule would leave it.
 */
export async function retireSchedule(address: string, namespace: string, scheduleId: string, claimant: ScheduleClaimant): Promise<RetiredSchedule> {
  const connection = await Connection.connect({ address });
  try {
    const handle = new Client({ connection, namespace }).schedule.getHandle(scheduleId);
    const stored = await readStored(handle);
    const decision = decideSchedule(stored, claimant);
    if (decision === "create") return { decision: "absent" };
    if (decision === "leave") return { decision, stored };
    try {
      await handle.delete();
    } catch (error) {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
    }
    return { decision: "deleted", stored };
  } finally {
    await connection.close();
  }
}
