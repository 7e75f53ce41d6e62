import type { WorkerOptions } from "@temporalio/worker";
import type { PollerSettings } from "../../config/pollers.js";
import type { WorkerConfig } from "../../config/worker.js";

export type PollerOptions = Required<Pick<WorkerOptions, "workflowTaskPollerBehavior" | "activityTaskPollerBehavior">> & Pick<WorkerOptions, "nonStickyToStickyPollRatio">;

/**
 * The worker's pollers as the options @temporalio/worker reads (it ignores
 * `maxConcurrent*TaskPolls`). Autoscaling: sdk-core gives the normal and the sticky workflow
 * queue each these bounds, sharing the slots between them; a simple maximum gives the normal
 * queue, the one every upload's first workflow task arrives on, `nonStickyToStickyPollRatio` of it
 * (the SDK's 0.2 when a worker's configuration names none, as the webhook worker's does not).
 */
export function pollerOptions(worker: Pick<WorkerConfig, "workflowTaskPollers" | "activityTaskPollers"> & Partial<Pick<WorkerConfig, "nonStickyToStickyPollRatio">>): PollerOptions {
  return {
    workflowTaskPollerBehavior: behavior(worker.workflowTaskPollers),
    activityTaskPollerBehavior: behavior(worker.activityTaskPollers),
    ...(worker.nonStickyToStickyPollRatio === undefined ? {} : { nonStickyToStickyPollRatio: worker.nonStickyToStickyPollRatio }),
  };
}

function behavior({ autoscaling, minimum, initial, maximum }: PollerSettings): NonNullable<WorkerOptions["workflowTaskPollerBehavior"]> {
  return autoscaling ? { type: "autoscaling", minimum, initial, maximum } : { type: "simple-maximum", maximum };
}
