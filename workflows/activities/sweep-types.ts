export interface SweepInput {
  batchSize: number;
  maxBatches: number;
  /** Bucket objects younger than this (the upload URL lifetime) may still be arriving. */
  orphanMinAgeSeconds: number;
}

export interface SweepResult {
  expired: number;
  storageDeletesFinished: number;
  orphansRemoved: number;
  batches: number;
}

export interface SweepActivities {
  expireOverdueRows(batchSize: number): Promise<{ scanned: number; expired: number }>;
  finishPendingStorageDeletes(batchSize: number): Promise<number>;
  removeOrphanObjects(startAfter: string | undefined, minAgeSeconds: number): Promise<{ removed: number; nextStartAfter?: string }>;
}
