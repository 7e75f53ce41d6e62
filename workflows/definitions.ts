import { defineSignal, defineUpdate } from "@temporalio/workflow";
import type { StoredObjectView } from "../src/domain/files/stored-object.js";

export interface ObjectRef {
  tenantId: string;
  objectId: string;
}

export interface LifecycleInput extends ObjectRef {
  /** "upload": a new object from initiate; "retention": restarted to keep a deadline. */
  mode: "upload" | "retention";
  /** When an upload that was never completed is abandoned (TEMP_UPLOAD_24H). */
  pendingDeadline?: string;
  timeouts: { scanSeconds: number; heartbeatSeconds: number };
}

export interface LifecycleResult {
  outcome: "DELETED" | "SETTLED";
  status?: string;
}

export interface CompleteArgs {
  checksum?: string;
  actorId: string;
  requestId?: string;
}

export const completeUpdate = defineUpdate<StoredObjectView, [CompleteArgs]>("complete");
/** Answers once the scan has ended. */
export const awaitScanUpdate = defineUpdate<StoredObjectView | null, []>("awaitScan");
/** The object's retention changed (hold, release, superseded, restored): re-read and re-arm. */
export const retentionChangedSignal = defineSignal<[]>("retentionChanged");

export const LIFECYCLE_WORKFLOW = "objectLifecycle";
