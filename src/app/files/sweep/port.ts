import type { Actor } from "../../../domain/actor.js";
import type { Cursor } from "../../../domain/pagination.js";
import type { ObjectRecord } from "../../../domain/files/stored-object.js";
import type { LifecycleObjects } from "../lifecycle/port.js";

/** A deleted row the sweep still owes a storage delete, with its keyset position. */
export interface PendingStorageDelete {
  tenantId: string;
  id: string;
  deletedAt: Date;
}

export interface StorageDeleteFailure {
  message: string;
  maxFailedRuns: number;
  at: Date;
}

export interface RecordedFailure {
  failedRuns: number;
  abandoned: boolean;
}

/**
 * The rows the retention sweep reads across tenants, and the lifecycle's own writes it repeats for
 * objects whose workflow is gone (expiry, the owed storage delete).
 */
export interface SweepObjects extends Pick<LifecycleObjects, "expire" | "findRecord" | "markStorageDeleted"> {
  /** Live rows whose deadline passed and that no hold keeps (a pre-filter; `expire` decides). */
  overdue(now: Date, limit: number, after?: Cursor): Promise<ObjectRecord[]>;
  /** Objects SCANNING since before `uploadedBefore` (their scan should have ended). */
  stuckScans(uploadedBefore: Date, limit: number): Promise<ObjectRecord[]>;
  /**
   * Deleted rows whose bucket object is still there, in (deletedAt, id) order after `after`:
   * rows the sweep gave up on are left out, and so are those that already failed in the run
   * `skipFailedIn` (the sweep's own correlation).
   */
  pendingStorageDeletes(limit: number, after: Cursor | undefined, skipFailedIn: string): Promise<PendingStorageDelete[]>;
  /**
   * Counts a failed storage delete against the row, once per run (the actor's correlation), and
   * gives up on it at `maxFailedRuns`; audits the first failure and the give-up. Undefined when
   * this run had already counted it (or the delete is no longer owed).
   */
  recordStorageDeleteFailure(actor: Actor, id: string, failure: StorageDeleteFailure): Promise<RecordedFailure | undefined>;
  /** Which of these bucket keys a row still owns (live, or deleted with its storage delete owed). */
  liveStorageKeys(keys: string[]): Promise<Set<string>>;
}
