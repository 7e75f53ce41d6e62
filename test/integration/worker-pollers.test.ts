/**
 * The worker runs with the pollers its configuration names: the compiled options the SDK hands
 * sdk-core, as the running worker process logs them at start, for the suite's worker (defaults)
 * and for a worker of this test's own started with other settings; its webhook worker with
 * pollers derived from that worker's own slots (before, the SDK's defaults). Before, the configured polls
 * went to `maxConcurrentWorkflowTaskPolls`, which @temporalio/worker 1.24 never reads: every
 * worker polled the normal queue, the one each upload's first workflow task arrives on, once; and
 * with the SDK's nonStickyToStickyPollRatio (0.2) a simple maximum of 8 still gave it one poll.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { parseConfig } from "../../src/config/config.js";
import { pollerOptions } from "../../src/adapters/temporal/worker-pollers.js";
import { ProcessSupervisor } from "../support/process-supervisor.js";

let own: ProcessSupervisor | undefined;

afterAll(async () => {
  await own?.stopAll();
});

/** The pollers of the running worker's "worker started" (or `message`) line (the last, if it restarted). */
function startedWith(log: string, message = "worker started"): unknown {
  const started = startedLine(log, message);
  if (!started) throw new Error(`no "${message}" line in ${log}`);
  const { workflowTaskPollerBehavior, activityTaskPollerBehavior, nonStickyToStickyPollRatio } = started;
  return { workflowTaskPollerBehavior, activityTaskPollerBehavior, ...(nonStickyToStickyPollRatio === undefined ? {} : { nonStickyToStickyPollRatio }) };
}

function startedLine(log: string, message: string): Record<string, unknown> | undefined {
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line.includes(`"${message}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .at(-1);
}

/**
 * The supervisor returns when the worker's stdout shows the line, which reaches the log file through
 * a pipe a moment later: wait for the file to hold it.
 */
async function written(log: string, message: string): Promise<void> {
  for (let i = 0; i < 100 && !startedLine(log, message); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("worker pollers", () => {
  it("the suite's worker runs with the configured pollers: a simple maximum of workflow task polls, half of them on the normal queue, autoscaling activity polls", () => {
    const env = inject("stackEnv");
    const running = startedWith(path.join(inject("logDir"), "worker.log"));
    const { worker } = parseConfig(env);
    expect(running).toEqual(pollerOptions(worker));
    expect(running).toEqual({
      workflowTaskPollerBehavior: { type: "simple-maximum", maximum: worker.maxConcurrentWorkflowTaskExecutions },
      activityTaskPollerBehavior: { type: "autoscaling", minimum: 1, initial: Math.min(10, worker.maxConcurrentActivityTaskExecutions), maximum: worker.maxConcurrentActivityTaskExecutions },
      nonStickyToStickyPollRatio: 0.5,
    });
  });

  it("the suite's webhook worker runs with pollers derived from its own slots", () => {
    const env = inject("stackEnv");
    const running = startedWith(path.join(inject("logDir"), "worker.log"), "webhook worker created");
    const { webhooks } = parseConfig(env);
    expect(running).toEqual(pollerOptions(webhooks));
    expect(running).toEqual({
      workflowTaskPollerBehavior: { type: "simple-maximum", maximum: webhooks.maxConcurrentWorkflowTasks },
      activityTaskPollerBehavior: { type: "autoscaling", minimum: 1, initial: Math.min(10, webhooks.maxConcurrentActivities), maximum: webhooks.maxConcurrentActivities },
    });
  });

  it("a worker started with other poller settings runs with those", { timeout: 180_000 }, async () => {
    const dir = path.join(process.cwd(), ".test-data", `pollers-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const settings = {
      WORKER_WORKFLOW_TASK_POLLERS_AUTOSCALING: "true",
      WORKER_WORKFLOW_TASK_POLLERS_MIN: "3",
      WORKER_WORKFLOW_TASK_POLLERS_INITIAL: "5",
      WORKER_WORKFLOW_TASK_POLLERS_MAX: "6",
      WORKER_ACTIVITY_TASK_POLLERS_MIN: "2",
      WORKER_ACTIVITY_TASK_POLLERS_INITIAL: "3",
      WORKER_ACTIVITY_TASK_POLLERS_MAX: "7",
      WORKER_WORKFLOW_TASK_POLLERS_NON_STICKY_RATIO: "0.25",
      WEBHOOK_WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: "6",
      WEBHOOK_WORKER_MAX_CONCURRENT_ACTIVITIES: "3",
    };
    own = new ProcessSupervisor(
      process.cwd(),
      // Its own queues and no schedules: it takes no work from the suite's worker.
      { ...inject("stackEnv"), METRICS_PORT: "0", TEMPORAL_TASK_QUEUE: `pollers-${process.pid}`, WEBHOOK_TASK_QUEUE: `pollers-${process.pid}-webhooks`, WORKER_SCHEDULES: "false", ...settings },
      dir,
    );
    await own.startWorker();
    await written(path.join(dir, "worker.log"), "worker started");
    expect(startedWith(path.join(dir, "worker.log"))).toEqual({
      workflowTaskPollerBehavior: { type: "autoscaling", minimum: 3, initial: 5, maximum: 6 },
      activityTaskPollerBehavior: { type: "autoscaling", minimum: 2, initial: 3, maximum: 7 },
      nonStickyToStickyPollRatio: 0.25,
    });
    expect(startedWith(path.join(dir, "worker.log"), "webhook worker created")).toEqual({
      workflowTaskPollerBehavior: { type: "simple-maximum", maximum: 6 },
      activityTaskPollerBehavior: { type: "autoscaling", minimum: 1, initial: 3, maximum: 3 },
    });
  });
});
