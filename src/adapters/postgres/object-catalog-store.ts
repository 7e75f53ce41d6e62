import { LockMode } from "@mikro-orm/core";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { AuditRecord, ListFilter, NewStoredObject, ObjectCatalog, UploadSession } from "../../app/files/port.js";
import type { Actor } from "../../domain/actor.js";
import type { CallScope } from "../../domain/call-scope.js";
import type { ObjectRecord, StoredObjectView } from "../../domain/files/stored-object.js";
import type { RestoreCandidate } from "../../domain/files/supersession.js";
import type { Cursor } from "../../domain/pagination.js";
import { writeAuditOnce } from "./audit-once.js";
import { writeAudit } from "./audit-store.js";
import { inCallTransaction, inTransaction, withDatabase } from "./database-work.js";
import { StoredObjectRow } from "./entities/stored-object.js";
import { toUploadSessionRow, UploadSessionRow } from "./entities/upload-session.js";
import { initiateUploadStatement, initiatedRow } from "./initiate-upload-statement.js";
import { keysetAfter, keysetOrderBy } from "./keyset.js";
import { makeCurrent } from "./replacement.js";
import { live, NOT_HELD } from "./row-conditions.js";
import { toStoredObjectView } from "./stored-object-from-row.js";
import { findObjectRecord, latestUploadSession, selectStoredObject } from "./stored-object-reads.js";
import { markStorageDeleted } from "./stored-object-removal.js";

/**
 * The API's object catalog in PostgreSQL. Every statement is scoped by tenant; state changes that
 * have conditions (delete, hold, restore) state them in the UPDATE itself or decide on the locked
 * row, so a concurrent change is never overwritten by a decision taken on a stale read.
 */
export class ObjectCatalogStore implements ObjectCatalog {
  constructor(private readonly orm: MikroORM) {}

  /** One statement; a call with a deadline puts it in a transaction that bounds it (inCallTransaction). */
  async createInitiated(object: NewStoredObject, session: UploadSession, audit: AuditRecord, maxPending: number, call?: CallScope): Promise<StoredObjectView | undefined> {
    const statement = initiateUploadStatement(object, session, audit, maxPending);
    const run = (em: EntityManager) => em.getConnection().execute<{ affectedRows: number }>(statement.sql, statement.params, "run", em.getTransactionContext());
    const result = call?.remainingMs() === undefined ? await withDatabase(this.orm, run) : await inCallTransaction(this.orm, call, run);
    return result.affectedRows === 0 ? undefined : toStoredObjectView(initiatedRow(object));
  }

  async findLive(tenantId: string, id: string): Promise<StoredObjectView | undefined> {
    const row = await selectStoredObject(this.orm, tenantId, id);
    return row && !row.deletedAt ? toStoredObjectView(row) : undefined;
  }

  findRecord(tenantId: string, id: string): Promise<ObjectRecord | undefined> {
    return findObjectRecord(this.orm, tenantId, id);
  }

  latestSession(tenantId: string, objectId: string): Promise<UploadSession | undefined> {
    return latestUploadSession(this.orm, tenantId, objectId);
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

  async softDelete(actor: Actor, id: string, now: Date): Promise<"deleted" | "held" | "missing"> {
    return inTransaction(this.orm, async (em) => {
      const changed = await em.nativeUpdate(
        StoredObjectRow,
        { ...live(actor.tenantId, id), ...NOT_HELD },
        { deletedAt: now, deleteReason: "USER_DELETED", storageDeletePending: true, isCurrent: false, updatedAt: now },
      );
      if (changed === 1) {
        await writeAudit(em, { objectId: id, action: "OBJECT_DELETED", actor, at: now });
        return "deleted";
      }
      return (await em.count(StoredObjectRow, live(actor.tenantId, id))) > 0 ? "held" : "missing";
    });
  }

  async setHold(actor: Actor, id: string, hold: { reason: string } | null, now: Date): Promise<"changed" | "unchanged" | "missing"> {
    return inTransaction(this.orm, async (em) => {
      const where = hold ? { ...live(actor.tenantId, id), ...NOT_HELD } : { ...live(actor.tenantId, id), legalHoldPlacedAt: { $ne: null } };
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

  markStorageDeleted(tenantId: string, id: string): Promise<void> {
    return markStorageDeleted(this.orm, tenantId, id);
  }

  async audit(record: AuditRecord): Promise<void> {
    await inTransaction(this.orm, (em) => writeAudit(em, record));
  }

  auditOnce(record: AuditRecord): Promise<void> {
    return writeAuditOnce(this.orm, record);
  }
}
