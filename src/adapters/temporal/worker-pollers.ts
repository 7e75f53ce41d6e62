import type { WorkerOptions } from "@temporalio/worker";
import type { WorkerConfig } from "../../config.js";

export type PollerOptions = Required<Pick<WorkerOptions, "workflowTaskPollerBehavior" | "activityTaskPollerBehavior">>;

/**
 * The worker's pollers as the options @temporalio/worker reads (it ignores
 * `maxConcurrent*TaskPolls`). Autoscaling: sdk-core gives the normal and the sticky workflow
 * queue each these bounds, sharing the slots between them, where a simple maximum gave the normal
 * queue, the one every upload's first workflow task arrives on, a fifth of it: one poll.
 */
export function pollerOptions(worker: Pick<WorkerConfig, "workflowTaskPollers" | "activityTaskPollers">): PollerOptions {
  return {
    workflowTaskPollerBehavior: { type: "autoscaling", ...worker.workflowTaskPollers },
    activityTaskPollerBehavior: { type: "autoscaling", ...worker.activityTaskPollers },
  };
}
