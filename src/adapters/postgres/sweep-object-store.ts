import type { MikroORM } from "@mikro-orm/postgresql";
import type { PendingStorageDelete, RecordedFailure, StorageDeleteFailure, SweepObjects } from "../../app/files/sweep/port.js";
import { type Actor, correlationOf } from "../../domain/actor.js";
import { PERMANENT_POLICIES, type ExpiryCandidate } from "../../domain/files/retention.js";
import { STORAGE_DELETE_REASONS, storageDeleteAbandoned, storageDeleteNotice } from "../../domain/files/storage-delete-failures.js";
import { tenantOfStorageKey } from "../../domain/files/storage-key.js";
import type { ObjectRecord } from "../../domain/files/stored-object.js";
import type { Cursor } from "../../domain/pagination.js";
import { writeAudit } from "./audit-store.js";
import { inTransaction, withDatabase } from "./database-work.js";
import { StoredObjectRow } from "./entities/stored-object.js";
import { keysetAfter, keysetOrderBy } from "./keyset.js";
import { NOT_HELD } from "./row-conditions.js";
import { toObjectRecord } from "./stored-object-from-row.js";
import { findObjectRecord } from "./stored-object-reads.js";
import { expireStoredObject, markStorageDeleted } from "./stored-object-removal.js";

/** The retention sweep's rows in PostgreSQL: reads across tenants, keyset-paged. */
export class SweepObjectStore implements SweepObjects {
  constructor(private readonly orm: MikroORM) {}

  findRecord(tenantId: string, id: string): Promise<ObjectRecord | undefined> {
    return findObjectRecord(this.orm, tenantId, id);
  }

  expire(actor: Actor, id: string, now: Date, isDue: (candidate: ExpiryCandidate) => boolean): Promise<boolean> {
    return expireStoredObject(this.orm, actor, id, now, isDue);
  }

  markStorageDeleted(tenantId: string, id: string): Promise<void> {
    return markStorageDeleted(this.orm, tenantId, id);
  }

  async overdue(now: Date, limit: number, after?: Cursor): Promise<ObjectRecord[]> {
    const rows = await withDatabase(this.orm, (em) =>
      em.find(
        StoredObjectRow,
        {
          deletedAt: null,
          ...NOT_HELD,
          retentionPolicy: { $nin: [...PERMANENT_POLICIES] },
          $and: [{ retentionExpiresAt: { $lte: now } }, keysetAfter("retentionExpiresAt", "asc", after)],
        },
        { orderBy: keysetOrderBy("retentionExpiresAt", "asc"), limit },
      ),
    );
    return rows.map(toObjectRecord);
  }

  async stuckScans(uploadedBefore: Date, limit: number): Promise<ObjectRecord[]> {
    const rows = await withDatabase(this.orm, (em) =>
      em.find(StoredObjectRow, { deletedAt: null, status: "SCANNING", uploadedAt: { $lt: uploadedBefore } }, { orderBy: { uploadedAt: "asc" }, limit }),
    );
    return rows.map(toObjectRecord);
  }

  async pendingStorageDeletes(limit: number, after: Cursor | undefined, skipFailedIn: string): Promise<PendingStorageDelete[]> {
    const rows = await withDatabase(this.orm, (em) =>
      em.find(
        StoredObjectRow,
        {
          storageDeletePending: true,
          storageDeleteAbandonedAt: null,
          deletedAt: { $ne: null },
          $and: [
            { $or: [{ storageDeleteFailedRun: null }, { storageDeleteFailedRun: { $ne: skipFailedIn } }] },
            keysetAfter("deletedAt", "asc", after),
          ],
        },
        { orderBy: keysetOrderBy("deletedAt", "asc"), limit, fields: ["tenantId", "id", "deletedAt"] },
      ),
    );
    return rows.map((r) => ({ tenantId: r.tenantId, id: r.id, deletedAt: r.deletedAt! }));
  }

  /**
   * Counted once per run (the actor's correlation): the row remembers the last run that failed,
   * so a retried sweep activity neither counts nor audits twice. The count, the give-up and the
   * audit entry commit together.
   */
  async recordStorageDeleteFailure(actor: Actor, id: string, failure: StorageDeleteFailure): Promise<RecordedFailure | undefined> {
    const run = correlationOf(actor) ?? "";
    return inTransaction(this.orm, async (em) => {
      const rows = await em.execute<{ failed_runs: number; delete_reason: string | null }[]>(
        `update stored_objects set storage_delete_failed_runs = storage_delete_failed_runs + 1, storage_delete_failed_run = ?,
           storage_delete_abandoned_at = case when storage_delete_failed_runs + 1 >= ? then ?::timestamptz end
         where tenant_id = ? and id = ? and storage_delete_pending and storage_delete_abandoned_at is null
           and storage_delete_failed_run is distinct from ?
         returning storage_delete_failed_runs as failed_runs, delete_reason`,
        [run, failure.maxFailedRuns, failure.at, actor.tenantId, id, run],
      );
      const row = rows[0];
      if (!row) return undefined;
      const failedRuns = Number(row.failed_runs);
      const notice = storageDeleteNotice(failedRuns, failure.maxFailedRuns);
      if (notice) {
        await writeAudit(em, {
          objectId: id,
          action: row.delete_reason === "EXPIRED" ? "OBJECT_EXPIRED" : "OBJECT_DELETED",
          actor,
          result: "FAILURE",
          details: { reason: STORAGE_DELETE_REASONS[notice], message: failure.message, failedRuns },
          at: failure.at,
        });
      }
      return { failedRuns, abandoned: storageDeleteAbandoned(failedRuns, failure.maxFailedRuns) };
    });
  }

  /**
   * Which of these bucket keys a row still owns: live rows, and deleted rows whose storage delete
   * is still pending (the sweep finishes those through their rows, with their audit).
   */
  async liveStorageKeys(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    // A key outside the layout names no tenant: no row owns it.
    const tenants = [...new Set(keys.map(tenantOfStorageKey).filter((t) => t !== undefined))];
    const rows = await withDatabase(this.orm, (em) =>
      em.find(
        StoredObjectRow,
        { tenantId: { $in: tenants }, storageKey: { $in: keys }, $or: [{ deletedAt: null }, { storageDeletePending: true }] },
        { fields: ["storageKey"] },
      ),
    );
    return new Set(rows.map((r) => r.storageKey));
  }
}
