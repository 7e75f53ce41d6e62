import type { ScanResultView, StoredObjectView } from "../../src/domain/files/stored-object.js";
import type { CompleteArgs, ObjectRef } from "../definitions.js";

export type CompleteVerdict =
  | { kind: "completed" | "already"; object: StoredObjectView }
  | { kind: "refused"; reason: string; message: string; objectDeleted: boolean }
  | { kind: "not_found" };

export interface RetentionState {
  exists: boolean;
  deleted: boolean;
  held: boolean;
  status?: string;
  objectClass?: string;
  ownerEntityType?: string;
  retentionExpiresAt?: string;
}

/** The activities of an object's lifecycle; workflows import this type only. */
export interface LifecycleActivities {
  completeUpload(ref: ObjectRef, args: CompleteArgs): Promise<CompleteVerdict>;
  scanObject(ref: ObjectRef): Promise<ScanResultView>;
  finishScan(ref: ObjectRef, result: ScanResultView): Promise<{ status: string }>;
  expireObject(ref: ObjectRef): Promise<boolean>;
  loadRetentionState(ref: ObjectRef): Promise<RetentionState>;
  loadObject(ref: ObjectRef): Promise<StoredObjectView | null>;
}
