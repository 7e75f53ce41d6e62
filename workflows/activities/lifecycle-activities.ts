import { Context } from "@temporalio/activity";
import { expireObject } from "../../src/app/files/lifecycle/expire-object.js";
import { finishScan } from "../../src/app/files/lifecycle/finish-scan.js";
import type { LifecyclePorts } from "../../src/app/files/lifecycle/deps.js";
import type { ObjectRef } from "../../src/domain/files/object-ref.js";
import { scanStoredObject } from "../../src/app/files/lifecycle/scan-stored-object.js";
import { loadLifecycleState } from "../../src/app/files/lifecycle/step-outcome.js";
import { verifyAndComplete } from "../../src/app/files/lifecycle/verify-and-complete.js";
import { workflowCorrelation } from "./activity-correlation.js";
import type { FaultInjector } from "./fault-injection.js";
import type { LifecycleActivities, WithFault } from "./lifecycle-types.js";

/**
 * The scan reports progress on every chunk (64 KiB); each heartbeat call goes through the SDK's
 * pipeline to the core, which sends at most one per throttle interval anyway. A profile of the
 * worker scanning 20 MB PDFs put those calls at a tenth of its CPU, so they are thinned here,
 * far below any heartbeat timeout.
 */
const HEARTBEAT_EVERY_MS = 250;

function atMostEvery<T>(intervalMs: number, call: (value: T) => void): (value: T) => void {
  let last = -Infinity;
  return (value) => {
    const now = performance.now();
    if (now - last < intervalMs) return;
    last = now;
    call(value);
  };
}

/** The lifecycle's activities: thin wrappers over the use cases in src/app/files/lifecycle. */
export function createLifecycleActivities(ports: LifecyclePorts, faults?: FaultInjector): LifecycleActivities {
  const marked = <T extends object>(ref: ObjectRef, step: string, outcome: T): WithFault<T> => {
    const fault = faults?.next(`${ref.tenantId}/${ref.objectId}`, step);
    return fault ? { ...outcome, fault } : outcome;
  };
  return {
    verifyAndComplete: async (ref, request) => marked(ref, "verifyAndComplete", await verifyAndComplete(ports, ref, request)),
    scanObject: (ref) => {
      const context = Context.current();
      const heartbeat = atMostEvery(HEARTBEAT_EVERY_MS, (bytes: number) => context.heartbeat(bytes));
      return scanStoredObject(ports, ref, { heartbeat, signal: context.cancellationSignal });
    },
    finishScan: async (ref, result, requestId) =>
      marked(ref, "finishScan", await finishScan(ports, ref, result, { requestId, correlationId: requestId ?? workflowCorrelation() })),
    expireObject: async (ref) => marked(ref, "expireObject", await expireObject(ports, ref, workflowCorrelation())),
    loadLifecycleState: async (ref) => marked(ref, "loadLifecycleState", await loadLifecycleState(ports, ref)),
  };
}
