import { type Actor, SYSTEM_ACTOR_ID, correlationOf } from "../../domain/actor.js";
import { LockMode } from "@mikro-orm/core";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type {
  AuditRecord,
  ListFilter,
  NewStoredObject,
  PendingStorageDelete,
  RecordedFailure,
  Settled,
  StorageDeleteFailure,
  StoredObjects,
  UploadSession,
} from "../../app/files/port.js";
import { PERMANENT_POLICIES, type ExpiryCandidate } from "../../domain/files/retention.js";
import type { RetentionPolicyName } from "../../domain/files/object-classes.js";
import type { ScanSettlement } from "../../domain/files/scan-settlement.js";
import type { RestoreCandidate } from "../../domain/files/supersession.js";
import { STORAGE_DELETE_REASONS, storageDeleteAbandoned, storageDeleteNotice } from "../../domain/files/storage-delete-failures.js";
import type { UploadMismatch } from "../../domain/files/upload-verification.js";
import type { ObjectRecord, ScanResultView, StoredObjectView } from "../../domain/files/stored-object.js";
import type { Cursor } from "../../domain/pagination.js";
import { writeAudit } from "./audit-store.js";
import { AuditEntryRow } from "./entities/audit-entry.js";
import { completeUploadStatement } from "./complete-upload-statement.js";
import { keysetAfter, keysetOrderBy } from "./keyset.js";
import { StoredObjectRow } from "./entities/stored-object.js";
import { toUploadSession, toUploadSessionRow, UploadSessionRow } from "./entities/upload-session.js";
import { initiateUploadStatement } from "./initiate-upload-statement.js";
import { SELECT_STORED_OBJECT } from "./stored-object-columns.js";
import { makeCurrent } from "./replacement.js";
import { scanAuditDetails } from "./scan-audit.js";
import { toObjectRecord, toStoredObjectView } from "./stored-object-from-row.js";
import { inTransaction, withDatabase } from "./database-work.js";
import { tenantOfStorageKey } from "../../domain/files/storage-key.js";

const live = (tenantId: string, id: string) => ({ tenantId, id, deletedAt: null });

/**
 * Stored objects in PostgreSQL. Every statement is scoped by tenant; state changes that have
 * conditions (complete, delete, expire) state them in the UPDATE itself, so a concurrent change
 * can never be overwritten by a decision taken on a stale read.
 */
export class StoredObjectStore implements StoredObjects {
  constructor(private readonly orm: MikroORM) {}

  async createInitiated(object: NewStoredObject, session: UploadSession, audit: AuditRecord, maxPending: number): Promise<StoredObjectView | undefined> {
    const statement = initiateUploadStatement(object, session, audit, maxPending);
    const result = await withDatabase(this.orm, (em) => em.getConnection().execute<{ affectedRows: number }>(statement.sql, statement.params, "run"));
    return result.affectedRows === 0 ? undefined : toStoredObjectView(initiatedRow(object));
  }

  async findLive(tenantId: string, id: string): Promise<StoredObjectView | undefined> {
    const row = await this.selectOne(tenantId, id);
    return row && !row.deletedAt ? toStoredObjectView(row) : undefined;
  }

  async findRecord(tenantId: string, id: string): Promise<ObjectRecord | undefined> {
    const row = await this.selectOne(tenantId, id);
    return row ? toObjectRecord(row) : undefined;
  }

  /** The hot path's read (complete, every lifecycle step), without the ORM. */
  private async selectOne(tenantId: string, id: string): Promise<StoredObjectRow | undefined> {
    const rows = await withDatabase(this.orm, (em) => em.getConnection().execute<StoredObjectRow[]>(SELECT_STORED_OBJECT, [tenantId, id]));
    return rows[0];
  }

  async latestSession(tenantId: string, objectId: string): Promise<UploadSession | undefined> {
    const row = await withDatabase(this.orm, (em) =>
      em.findOne(UploadSessionRow, { tenantId, objectId }, { orderBy: { createdAt: "desc" } }),
    );
    return row ? toUploadSession(row) : undefined;
  }

  async initiatorOf(tenantId: string, objectId: string): Promise<string | undefined> {
    const row = await withDatabase(this.orm, (em) =>
      em.findOne(UploadSessionRow, { tenantId, objectId }, { orderBy: { createdAt: "asc", id: "asc" }, fields: ["initiatedBy"] }),
    );
    return row?.initiatedBy;
  }

  async list(tenantId: string, filter: ListFilter, after: Cursor | undefined, limit: number): Promise<StoredObjectView[]> {
    const where: Record<string, unknown> = { tenantId, deletedAt: null, ...keysetAfter("createdAt", "desc", after) };
    for (const [key, value] of Object.entries(filter)) if (value !== undefined) where[key] = value;
    const rows = await withDatabase(this.orm, (em) =>
      em.find(StoredObjectRow, where, { orderBy: keysetOrderBy("createdAt", "desc"), limit }),
    );
    return rows.map(toStoredObjectView);
  }

  /** Refresh of the upload URL: a new session row, audited; only while PENDING_UPLOAD. */
  async addSession(session: UploadSession, audit: AuditRecord): Promise<boolean> {
    return inTransaction(this.orm, async (em) => {
      const pending = await em.count(StoredObjectRow, { ...live(session.tenantId, session.objectId), status: "PENDING_UPLOAD" });
      if (pending === 0) return false;
      await em.insert(UploadSessionRow, toUploadSessionRow(session));
      await writeAudit(em, audit);
      return true;
    });
  }

  async markCompleted(actor: Actor, id: string, checksumMd5: string, now: Date): Promise<boolean> {
    return inTransaction(this.orm, async (em) => this.moveToScanning(em, actor, id, checksumMd5, now));
  }

  private async moveToScanning(em: EntityManager, actor: Actor, id: string, checksumMd5: string, now: Date): Promise<boolean> {
    const changed = await em.nativeUpdate(
      StoredObjectRow,
      { ...live(actor.tenantId, id), status: "PENDING_UPLOAD" },
      { status: "SCANNING", checksumMd5, uploadedAt: now, updatedAt: now },
    );
    if (changed === 0) return false;
    await em.nativeUpdate(UploadSessionRow, { tenantId: actor.tenantId, objectId: id, completedAt: null }, { completedAt: now });
    await writeAudit(em, { objectId: id, action: "UPLOAD_COMPLETED", actor, details: { checksum: checksumMd5 }, at: now });
    return true;
  }

  async completeAndSettle(actor: Actor, id: string, md5: string, result: ScanResultView, settlement: ScanSettlement, now: Date): Promise<Settled> {
    if (settlement.supersedes) {
      return inTransaction(this.orm, async (em) => {
        if (!(await this.moveToScanning(em, actor, id, md5, now))) return { changed: false, superseded: [] };
        return this.settle(em, actor, id, result, settlement, now);
      });
    }
    const statement = completeUploadStatement(actor, id, md5, result, settlement, now);
    const rows = await withDatabase(this.orm, (em) => em.getConnection().execute<StoredObjectRow[]>(statement.sql, statement.params));
    return rows[0] ? { changed: true, superseded: [], record: toObjectRecord(rows[0]) } : { changed: false, superseded: [] };
  }

  async finishScan(actor: Actor, id: string, result: ScanResultView, settlement: ScanSettlement, now: Date): Promise<Settled> {
    return inTransaction(this.orm, (em) => this.settle(em, actor, id, result, settlement, now));
  }

  /** SCANNING → READY/REJECTED inside the caller's transaction. */
  private async settle(em: EntityManager, actor: Actor, id: string, result: ScanResultView, settlement: ScanSettlement, now: Date): Promise<Settled> {
    const ready = settlement.status === "READY";
    const changed = await em.nativeUpdate(
      StoredObjectRow,
      { ...live(actor.tenantId, id), status: "SCANNING" },
      {
        status: settlement.status,
        retentionPolicy: settlement.retentionPolicy,
        retentionExpiresAt: settlement.retentionExpiresAt,
        scanResult: result as unknown as Record<string, unknown>,
        updatedAt: now,
        readyAt: ready ? now : null,
        isCurrent: ready && !settlement.supersedes,
      },
    );
    if (changed === 0) return { changed: false, superseded: [] };
    const system = { ...actor, actorId: SYSTEM_ACTOR_ID };
    await writeAudit(em, {
      objectId: id,
      action: ready ? "SCAN_PASSED" : "SCAN_FAILED",
      actor: system,
      result: ready ? "SUCCESS" : "FAILURE",
      details: scanAuditDetails(result),
      at: now,
    });
    if (!settlement.supersedes) return { changed: true, superseded: [] };
    const row = await em.findOneOrFail(StoredObjectRow, live(actor.tenantId, id));
    const superseded = await makeCurrent(em, row, settlement.supersededExpiresAt!, now);
    // Stamped under the owner's lock: readyAt orders racing uploads as the lock did, so the
    // current file is always the one that became READY last.
    await em.execute("update stored_objects set ready_at = clock_timestamp() where tenant_id = ? and id = ?", [actor.tenantId, id]);
    return { changed: true, superseded };
  }

  async failUpload(actor: Actor, id: string, reason: UploadMismatch["reason"], details: Record<string, unknown>, now: Date): Promise<boolean> {
    return inTransaction(this.orm, async (em) => {
      const changed = await em.nativeUpdate(
        StoredObjectRow,
        { ...live(actor.tenantId, id), status: "PENDING_UPLOAD", legalHoldPlacedAt: null },
        { deletedAt: now, deleteReason: "CHECKSUM_MISMATCH", verificationFailure: reason, storageDeletePending: true, updatedAt: now },
      );
      if (changed === 0) return false;
      await writeAudit(em, { objectId: id, action: "UPLOAD_FAILED", actor, result: "FAILURE", details, at: now });
      return true;
    });
  }

  async softDelete(actor: Actor, id: string, now: Date): Promise<"deleted" | "held" | "missing"> {
    return inTransaction(this.orm, async (em) => {
      const changed = await em.nativeUpdate(
        StoredObjectRow,
        { ...live(actor.tenantId, id), legalHoldPlacedAt: null },
        { deletedAt: now, deleteReason: "USER_DELETED", storageDeletePending: true, isCurrent: false, updatedAt: now },
      );
      if (changed === 1) {
        await writeAudit(em, { objectId: id, action: "OBJECT_DELETED", actor, at: now });
        return "deleted";
      }
      return (await em.count(StoredObjectRow, live(actor.tenantId, id))) > 0 ? "held" : "missing";
    });
  }

  /** The row is locked, then the caller's rule decides: a hold placed a moment before always wins. */
  async expire(actor: Actor, id: string, now: Date, isDue: (candidate: ExpiryCandidate) => boolean): Promise<boolean> {
    return inTransaction(this.orm, async (em) => {
      const row = await em.findOne(StoredObjectRow, { tenantId: actor.tenantId, id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row) return false;
      const candidate: ExpiryCandidate = {
        status: row.status,
        retentionPolicy: row.retentionPolicy as RetentionPolicyName,
        retentionExpiresAt: row.retentionExpiresAt,
        legalHold: !!row.legalHoldPlacedAt,
        deleted: !!row.deletedAt,
      };
      if (!isDue(candidate)) return false;
      await em.nativeUpdate(
        StoredObjectRow,
        { tenantId: actor.tenantId, id },
        { deletedAt: now, deleteReason: "EXPIRED", storageDeletePending: true, isCurrent: false, updatedAt: now },
      );
      await writeAudit(em, { objectId: id, action: "OBJECT_EXPIRED", actor, at: now });
      return true;
    });
  }

  async markStorageDeleted(tenantId: string, id: string): Promise<void> {
    await withDatabase(this.orm, (em) => em.nativeUpdate(StoredObjectRow, { tenantId, id }, { storageDeletePending: false }));
  }

  async setHold(actor: Actor, id: string, hold: { reason: string } | null, now: Date): Promise<"changed" | "unchanged" | "missing"> {
    return inTransaction(this.orm, async (em) => {
      const where = hold ? { ...live(actor.tenantId, id), legalHoldPlacedAt: null } : { ...live(actor.tenantId, id), legalHoldPlacedAt: { $ne: null } };
      const data = hold
        ? { legalHoldReason: hold.reason, legalHoldPlacedBy: actor.actorId, legalHoldPlacedAt: now, updatedAt: now }
        : { legalHoldReason: null, legalHoldPlacedBy: null, legalHoldPlacedAt: null, updatedAt: now };
      const changed = await em.nativeUpdate(StoredObjectRow, where, data);
      if (changed === 1) {
        const action = hold ? "HOLD_PLACED" : "HOLD_RELEASED";
        await writeAudit(em, { objectId: id, action, actor, details: hold ? { reason: hold.reason } : {}, at: now });
        return "changed";
      }
      return (await em.count(StoredObjectRow, live(actor.tenantId, id))) > 0 ? "unchanged" : "missing";
    });
  }

  async restore(
    actor: Actor,
    id: string,
    settlement: { retentionPolicy: string; retentionExpiresAt: Date | null; supersededExpiresAt: Date },
    now: Date,
    canRestore: (candidate: RestoreCandidate) => boolean,
  ): Promise<string[] | undefined> {
    return inTransaction(this.orm, async (em) => {
      // Locked before deciding, as expire locks before it decides: whichever commits first, the
      // other sees its result, so an expired row is never made current again.
      const row = await em.findOne(StoredObjectRow, { tenantId: actor.tenantId, id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row || !canRestore({ ...row, deleted: !!row.deletedAt })) return undefined;
      const displaced = await makeCurrent(em, row, settlement.supersededExpiresAt, now);
      await em.nativeUpdate(StoredObjectRow, live(actor.tenantId, id), {
        retentionPolicy: settlement.retentionPolicy,
        retentionExpiresAt: settlement.retentionExpiresAt,
      });
      await writeAudit(em, { objectId: id, action: "OBJECT_RESTORED", actor, details: { displaced }, at: now });
      return displaced;
    });
  }

  async audit(record: AuditRecord): Promise<void> {
    await inTransaction(this.orm, (em) => writeAudit(em, record));
  }

  async auditOnce(record: AuditRecord): Promise<void> {
    await inTransaction(this.orm, async (em) => {
      const { actor } = record;
      const correlationId = correlationOf(actor);
      if (correlationId) {
        // Two repeats racing each other must not both find nothing and both write.
        await em.execute("select pg_advisory_xact_lock(hashtextextended(?, 0))", [`audit-once:${actor.tenantId}:${record.objectId}:${record.action}:${correlationId}`]);
        const seen = await em.count(AuditEntryRow, { tenantId: actor.tenantId, objectId: record.objectId, action: record.action, correlationId, result: record.result ?? "SUCCESS" });
        if (seen > 0) return;
      }
      await writeAudit(em, record);
    });
  }

  async overdue(now: Date, limit: number, after?: Cursor): Promise<ObjectRecord[]> {
    const rows = await withDatabase(this.orm, (em) =>
      em.find(
        StoredObjectRow,
        {
          deletedAt: null,
          legalHoldPlacedAt: null,
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

/** The row as initiate stores it, for the answer (the statement returns nothing to map). */
function initiatedRow(object: NewStoredObject): StoredObjectRow {
  return Object.assign(new StoredObjectRow(), {
    id: object.id,
    tenantId: object.tenantId,
    storageKey: object.storageKey,
    status: "PENDING_UPLOAD",
    objectClass: object.objectClass,
    ownerEntityType: object.ownerEntityType,
    ownerEntityId: object.ownerEntityId,
    originalFilename: object.originalFilename,
    contentType: object.contentType,
    fileSize: String(object.fileSize),
    isCurrent: false,
    retentionPolicy: "TEMP_UPLOAD_24H",
    retentionExpiresAt: object.pendingDeadline,
    workflowId: object.workflowId,
    storageDeletePending: false,
    createdAt: object.createdAt,
    updatedAt: object.createdAt,
  });
}
