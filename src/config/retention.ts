/** How long each kind of leftover is kept before the sweep deletes it, and how much one sweep run does. */
import type { Env } from "./env.js";
import { integer } from "./env-values.js";

export interface RetentionConfig {
  tempUploadSeconds: number;
  failedUploadSeconds: number;
  supersededSeconds: number;
  importArtifactSeconds: number;
  sweepIntervalSeconds: number;
  /** Rows per sweep activity, and batches per phase and run: a run's bound is their product. */
  sweepBatchSize: number;
  sweepMaxBatches: number;
  /** Sweep runs a storage delete may fail in before the sweep gives up on it (audited, gauged). */
  storageDeleteMaxFailedRuns: number;
}

export function parseRetention(env: Env): RetentionConfig {
  return {
    tempUploadSeconds: integer(env, "RETENTION_TEMP_UPLOAD_SECONDS", 24 * 3600),
    failedUploadSeconds: integer(env, "RETENTION_FAILED_UPLOAD_SECONDS", 7 * 24 * 3600),
    supersededSeconds: integer(env, "RETENTION_SUPERSEDED_SECONDS", 30 * 24 * 3600),
    importArtifactSeconds: integer(env, "RETENTION_IMPORT_ARTIFACT_SECONDS", 90 * 24 * 3600),
    sweepIntervalSeconds: integer(env, "SWEEP_INTERVAL_SECONDS", 3600),
    sweepBatchSize: integer(env, "SWEEP_BATCH_SIZE", 100),
    sweepMaxBatches: integer(env, "SWEEP_MAX_BATCHES", 100),
    storageDeleteMaxFailedRuns: integer(env, "SWEEP_STORAGE_DELETE_MAX_FAILED_RUNS", 24),
  };
}
