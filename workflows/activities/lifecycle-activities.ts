import { Context } from "@temporalio/activity";
import { expireObject } from "../../src/app/files/lifecycle/expire-object.js";
import { finishScan } from "../../src/app/files/lifecycle/finish-scan.js";
import type { LifecyclePorts, ObjectRef } from "../../src/app/files/lifecycle/lifecycle-ports.js";
import { scanStoredObject } from "../../src/app/files/lifecycle/scan-stored-object.js";
import { loadLifecycleState } from "../../src/app/files/lifecycle/step-outcome.js";
import { verifyAndComplete } from "../../src/app/files/lifecycle/verify-and-complete.js";
import { workflowCorrelation } from "./activity-correlation.js";
import type { FaultInjector } from "./fault-injection.js";
import type { LifecycleActivities, WithFault } from "./lifecycle-types.js";

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
      return scanStoredObject(ports, ref, { heartbeat: (bytes) => context.heartbeat(bytes), signal: context.cancellationSignal });
    },
    finishScan: async (ref, result, requestId) =>
      marked(ref, "finishScan", await finishScan(ports, ref, result, { requestId, correlationId: requestId ?? workflowCorrelation() })),
    expireObject: async (ref) => marked(ref, "expireObject", await expireObject(ports, ref, workflowCorrelation())),
    loadLifecycleState: async (ref) => marked(ref, "loadLifecycleState", await loadLifecycleState(ports, ref)),
  };
}
