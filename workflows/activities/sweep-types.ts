export interface SweepInput {
  /** Rows per activity (SWEEP_BATCH_SIZE). */
  batchSize: number;
  /** Batches per phase and run (SWEEP_MAX_BATCHES): a run touches at most batchSize × maxBatches rows a phase. */
  maxBatches: number;
  /** Bucket objects younger than this (the upload URL lifetime) may still be arriving. */
  orphanMinAgeSeconds: number;
}

export interface SweepResult {
  expired: number;
  storageDeletesFinished: number;
  /** Storage deletes that failed in this run (each row counted once, orphans too); they are tried again next run. */
  storageDeleteFailures: number;
  /** Rows whose storage delete failed in SWEEP_STORAGE_DELETE_MAX_FAILED_RUNS runs: left to an operator. */
  storageDeletesAbandoned: number;
  /** Objects still SCANNING past their scan deadline whose workflows were told to act again. */
  scansRedriven: number;
  orphansRemoved: number;
  batches: number;
}

/** Where the last batch ended: the time the phase orders by (deadline, deletion) and the id. */
export interface SweepCursor {
  at: string;
  id: string;
}

/** How a batch's storage deletes went: failed ones are recorded on their rows, not thrown. */
export interface StorageDeleteCounts {
  storageDeleteFailures: number;
  storageDeletesAbandoned: number;
}

export interface SweepBatch {
  /** Rows the batch read: fewer than the batch size means the phase is done. */
  scanned: number;
  next?: SweepCursor;
}

export interface SweepActivities {
  expireOverdueRows(batchSize: number, after?: SweepCursor): Promise<SweepBatch & StorageDeleteCounts & { expired: number }>;
  finishPendingStorageDeletes(batchSize: number, after?: SweepCursor): Promise<SweepBatch & StorageDeleteCounts & { finished: number }>;
  /** Signals the workflows of objects stuck SCANNING; answers how many it found. */
  redriveStuckScans(batchSize: number): Promise<number>;
  removeOrphanObjects(startAfter: string | undefined, minAgeSeconds: number): Promise<{ removed: number; failed: number; nextStartAfter?: string }>;
}
