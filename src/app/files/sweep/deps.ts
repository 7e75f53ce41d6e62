import type { ObjectRef } from "../../../domain/files/object-ref.js";
import type { ObjectStorage } from "../port.js";
import type { SweepObjects } from "./port.js";

/** What the retention sweep's use cases need; wired in src/main. */
export interface SweepDeps {
  objects: SweepObjects;
  storage: Pick<ObjectStorage, "list" | "delete" | "listStaleMultipart" | "abortMultipartUpload">;
  /** The abandoned-upload deadline (RETENTION_TEMP_UPLOAD_SECONDS): older incomplete multipart uploads are aborted. */
  pendingUploadSeconds: number;
  /** Told how many stale multipart uploads a run aborted (logged, and counted for /metrics). */
  multipartAborted?(count: number): Promise<void>;
  /** True while the object's own workflow is running (it will expire the object itself). */
  workflowRunning(ref: ObjectRef): Promise<boolean>;
  /** Tells the object's workflow (started again if it ended) to re-read its state and act. */
  redrive(ref: ObjectRef): Promise<void>;
  /** How long after complete a scan must have ended (the scan activity's whole budget). */
  scanDeadlineSeconds: number;
  /** Sweep runs a storage delete may fail in before the sweep gives up on it (SWEEP_STORAGE_DELETE_MAX_FAILED_RUNS). */
  storageDeleteMaxFailedRuns: number;
  now(): Date;
}

/** The sweep run a batch belongs to: its correlation, and how it reports while it runs (heartbeat, log). */
export interface SweepRun {
  /** The run's correlation: its audit entries carry it, and a failed delete is counted once per run. */
  correlationId: string;
  /** Called before each row or page: a batch that stops making progress is retried. */
  heartbeat(detail: unknown): void;
  warn(message: string, fields: Record<string, unknown>): void;
}
