/** The main Temporal worker: its slots, its long polls, and whether it owns the schedules. */
import { ConfigError } from "./config-error.js";
import type { Env } from "./env.js";
import { boolean, fraction, integer, optional } from "./env-values.js";
import { activityPollerDefaults, type PollerSettings, pollers, workflowPollerDefaults } from "./pollers.js";

export interface WorkerConfig {
  /** Whether this worker creates the retention-sweep and audit-checkpoints schedules and wakes the webhook dispatcher. */
  schedules: boolean;
  /** Test-only: fail each workflow task once after each lifecycle step (development mode only). */
  faultInjection: boolean;
  maxCachedWorkflows?: number;
  /** Where workflow bundles are kept between starts (src/adapters/temporal/workflow-bundle-cache.ts); unset: bundled at every start. */
  workflowBundleCache?: string;
  /**
   * Workflow tasks in progress at once. Kept low: a task accepted but not finished within the
   * 10 s workflow task timeout is timed out by the server and sent again while the worker still
   * works on it (sdk-core: "Trying to send a new WFT for a run which already has one"); tasks
   * that wait in the server's queue instead cost nothing.
   */
  maxConcurrentWorkflowTaskExecutions: number;
  maxConcurrentLocalActivityExecutions: number;
  maxConcurrentActivityTaskExecutions: number;
  /** Long polls (src/adapters/temporal/worker-pollers.ts). */
  workflowTaskPollers: PollerSettings;
  activityTaskPollers: PollerSettings;
  /** The share of workflow task polls on the normal queue (the rest on the sticky one), as sdk-core's nonStickyToStickyPollRatio. */
  nonStickyToStickyPollRatio: number;
}

/**
 * Half the workflow task polls on the normal queue. Every upload's workflow task arrives there
 * (its workflow sleeps until complete, and usually ends in that one task), where the SDK's 0.2
 * left one poll of eight: tasks were dispatched one poll round trip at a time. Measured here
 * (100 KB uploads, 16 clients, 2 cores, dev server): 15.1 uploads/s with 0.2, 18.7 with 0.5,
 * 19.7 with 1; 0.5 keeps four polls for the sticky queue the long-lived workflows use.
 */
export const NON_STICKY_POLL_RATIO = 0.5;

export function parseWorker(env: Env, developmentMode: boolean): WorkerConfig {
  const faults = optional(env, "FAULT_INJECTION");
  if (faults !== undefined && faults !== "workflow-tasks") throw new ConfigError("FAULT_INJECTION", `must be "workflow-tasks", got "${faults}"`);
  if (faults && !developmentMode) throw new ConfigError("FAULT_INJECTION", "is refused without DEVELOPMENT_MODE=true");
  const maybe = (name: string) => (optional(env, name) === undefined ? undefined : integer(env, name, 1));
  const workflowTasks = integer(env, "WORKER_MAX_CONCURRENT_WORKFLOW_TASKS", 8, 2);
  const activities = integer(env, "WORKER_MAX_CONCURRENT_ACTIVITIES", 20);
  return {
    schedules: boolean(env, "WORKER_SCHEDULES", true),
    faultInjection: faults === "workflow-tasks",
    maxCachedWorkflows: maybe("WORKER_MAX_CACHED_WORKFLOWS"),
    workflowBundleCache: optional(env, "TEMPORAL_WORKFLOW_BUNDLE_CACHE"),
    maxConcurrentWorkflowTaskExecutions: workflowTasks,
    maxConcurrentLocalActivityExecutions: integer(env, "WORKER_MAX_CONCURRENT_LOCAL_ACTIVITIES", 2 * workflowTasks),
    maxConcurrentActivityTaskExecutions: activities,
    workflowTaskPollers: pollers(env, "WORKER_WORKFLOW_TASK_POLLERS", "WORKER_MAX_WORKFLOW_TASK_POLLS", workflowTasks, workflowPollerDefaults(workflowTasks)),
    activityTaskPollers: pollers(env, "WORKER_ACTIVITY_TASK_POLLERS", "WORKER_MAX_ACTIVITY_TASK_POLLS", activities, activityPollerDefaults(activities)),
    nonStickyToStickyPollRatio: fraction(env, "WORKER_WORKFLOW_TASK_POLLERS_NON_STICKY_RATIO", NON_STICKY_POLL_RATIO, 0, 1),
  };
}
