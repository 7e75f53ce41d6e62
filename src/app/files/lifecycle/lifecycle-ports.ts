import type { ObjectStorage } from "../../../domain/files/object-storage.js";
import type { RetentionDurations } from "../../../domain/files/retention.js";
import type { StoredObjects } from "../port.js";

export interface ObjectRef {
  tenantId: string;
  objectId: string;
}

/** What the lifecycle steps (run by the object's workflow as activities) need. */
export interface LifecyclePorts {
  objects: StoredObjects;
  storage: ObjectStorage;
  retention: RetentionDurations;
  /** Largest image or PDF that complete scans itself; larger ones go to the scan activity. */
  inlineScanMaxBytes: number;
  /** Re-arms another object's retention timer (signal-with-start of its workflow). */
  retentionChanged(ref: ObjectRef): Promise<void>;
  now(): Date;
}
