/**
 * Who may change a schedule shared by every worker and deployment in a namespace. Without an
 * owner, the last worker to start re-pointed it at its own task queue, so a second deployment
 * (another task queue) silently took the sweep away from the first.
 */

/** What a worker found stored: the owner in the schedule's memo, or none on a schedule created before owners. */
export interface StoredSchedule {
  owner?: string;
  taskQueue: string;
}

export interface ScheduleClaimant {
  /** The deployment's name: its main task queue, shared by all its replicas. */
  owner: string;
  /** The queue this schedule's workflows run on for that deployment. */
  taskQueue: string;
}

/** create: absent; update: ours, converge on our settings; leave: another deployment's. */
export type ScheduleDecision = "create" | "update" | "leave";

export function decideSchedule(stored: StoredSchedule | undefined, claimant: ScheduleClaimant): ScheduleDecision {
  if (stored === undefined) return "create";
  // A schedule from before owners were recorded belongs to the deployment whose queue it points at.
  const owner = stored.owner ?? (stored.taskQueue === claimant.taskQueue ? claimant.owner : undefined);
  return owner === claimant.owner ? "update" : "leave";
}
