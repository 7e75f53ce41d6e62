import type { CompleteOutcome, CompleteRequest } from "../../src/app/files/lifecycle/verify-and-complete.js";
import type { StepOutcome } from "../../src/app/files/lifecycle/step-outcome.js";
import type { StoredObjectScan } from "../../src/app/files/lifecycle/scan-stored-object.js";
import type { ObjectRef } from "../definitions.js";

/**
 * Test-only (FAULT_INJECTION=workflow-tasks): the workflow fails its task when a step answers
 * with this, so the step runs again and must answer from the persisted state.
 */
export type FaultPoint = "after-step" | "after-update";

export type WithFault<T> = T & { fault?: FaultPoint };

/** The activities of an object's lifecycle; workflows import this type only. */
export interface LifecycleActivities {
  verifyAndComplete(ref: ObjectRef, request: CompleteRequest): Promise<WithFault<CompleteOutcome>>;
  scanObject(ref: ObjectRef): Promise<StoredObjectScan | undefined>;
  finishScan(ref: ObjectRef, result: StoredObjectScan, requestId?: string): Promise<WithFault<StepOutcome>>;
  expireObject(ref: ObjectRef): Promise<WithFault<StepOutcome>>;
  loadLifecycleState(ref: ObjectRef): Promise<WithFault<StepOutcome>>;
}
