import { defineQuery, defineSignal, defineUpdate } from "@temporalio/workflow";
import type { RescanProgress } from "./activities/rescan-types.js";
import type { CompleteArgs } from "../src/app/files/port.js";
import type { ObjectRef } from "../src/domain/files/object-ref.js";
import type { StoredObjectView } from "../src/domain/files/stored-object.js";

export type { ObjectRef };

/** How the client sends the bytes: parts of an S3 multipart upload, or one signed PUT. */
export type UploadMode = "MULTIPART" | "SINGLE_PUT";

export interface LifecycleInput extends ObjectRef {
  /**
   * "upload": started by initiate, the object is PENDING_UPLOAD until `pendingDeadline`;
   * "resume": started again (a retention change, the sweep, complete finding no workflow): the
   * workflow reads the object's state first.
   */
  mode: "upload" | "resume";
  /** When an upload that was never completed is abandoned (TEMP_UPLOAD_24H). */
  pendingDeadline?: string;
  /** How initiate asked for the bytes ("upload" mode): shown in the history, and as the `UploadMode` search attribute. */
  uploadMode?: UploadMode;
  timeouts: { scanSeconds: number; heartbeatSeconds: number };
}

export interface LifecycleResult {
  outcome: "DELETED" | "SETTLED";
  status?: string;
}

/** Complete: verifies the upload and, with `waitSeconds`, answers with the scan's outcome. */
export const completeUpdate = defineUpdate<StoredObjectView, [CompleteArgs]>("complete");
/**
 * The object's persisted state changed outside the workflow (hold, release, delete, superseded,
 * restored), or the sweep found it stuck: re-read it and act on what it is now.
 */
export const retentionChangedSignal = defineSignal<[]>("retentionChanged");

export const LIFECYCLE_WORKFLOW = "objectLifecycle";

/** The re-scan of READY objects after a signature database change (workflows/malware-rescan.ts). */
export const MALWARE_RESCAN_WORKFLOW = "malwareRescan";
/** Its progress so far: objects read, scanned again, quarantined, and its cursor. */
export const rescanProgressQuery = defineQuery<RescanProgress>("progress");
