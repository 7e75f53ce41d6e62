export interface SweepInput {
  batchSize: number;
  maxBatches: number;
  /** Bucket objects younger than this (the upload URL lifetime) may still be arriving. */
  orphanMinAgeSeconds: number;
}

export interface SweepResult {
  expired: number;
  storageDeletesFinished: number;
  /** Objects still SCANNING past their scan deadline whose workflows were told to act again. */
  scansRedriven: number;
  orphansRemoved: number;
  batches: number;
}

/** Where the last batch of overdue rows ended: deadline and id. */
export interface OverdueCursor {
  at: string;
  id: string;
}

export interface SweepActivities {
  expireOverdueRows(batchSize: number, after?: OverdueCursor): Promise<{ scanned: number; expired: number; next?: OverdueCursor }>;
  finishPendingStorageDeletes(batchSize: number): Promise<number>;
  /** Signals the workflows of objects stuck SCANNING; answers how many it found. */
  redriveStuckScans(batchSize: number): Promise<number>;
  removeOrphanObjects(startAfter: string | undefined, minAgeSeconds: number): Promise<{ removed: number; nextStartAfter?: string }>;
}
