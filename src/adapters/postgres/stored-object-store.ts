import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { PERMANENT_POLICIES } from "../../domain/files/retention.js";
import type { Actor, DeleteReason, ScanResultView, StoredObjectView } from "../../domain/files/stored-object.js";
import type { Cursor } from "../../domain/pagination.js";
import { writeAudit, type AuditRecord } from "./audit-store.js";
import { StoredObjectRow } from "./entities/stored-object.js";
import { UploadSessionRow } from "./entities/upload-session.js";
import { toStoredObjectView } from "./stored-object-mapper.js";
import { translateDbError } from "./translate-db-error.js";

export interface ListFilter {
  ownerEntityType?: string;
  ownerEntityId?: string;
  isCurrent?: boolean;
  objectClass?: string;
  status?: string;
}

const live = (tenantId: string, id: string) => ({ tenantId, id, deletedAt: null });

/**
 * Stored objects in PostgreSQL. Every statement is scoped by tenant; state changes that have
 * conditions (complete, delete, expire) state them in the UPDATE itself, so a concurrent change
 * can never be overwritten by a decision taken on a stale read.
 */
export class StoredObjectStore {
  constructor(private readonly orm: MikroORM) {}

  private async tx<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.orm.em.fork().transactional(work);
    } catch (error) {
      translateDbError(error);
    }
  }

  private async read<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await work(this.orm.em.fork());
    } catch (error) {
      translateDbError(error);
    }
  }

  /** Inserts object, session and audit; `beforeCommit` runs inside the transaction. */
  async createInitiated(
    object: StoredObjectRow,
    session: UploadSessionRow,
    audit: AuditRecord,
    beforeCommit: () => Promise<void>,
  ): Promise<StoredObjectView> {
    return this.tx(async (em) => {
      await em.insert(StoredObjectRow, object);
      await em.insert(UploadSessionRow, session);
      await writeAudit(em, audit);
      await beforeCommit();
      return toStoredObjectView(object);
    });
  }

  async findLive(tenantId: string, id: string): Promise<StoredObjectView | undefined> {
    const row = await this.read((em) => em.findOne(StoredObjectRow, live(tenantId, id)));
    return row ? toStoredObjectView(row) : undefined;
  }

  /** Including soft-deleted rows: the workflow must see why its object is gone. */
  async findAny(tenantId: string, id: string): Promise<StoredObjectRow | undefined> {
    return (await this.read((em) => em.findOne(StoredObjectRow, { tenantId, id }))) ?? undefined;
  }

  async latestSession(tenantId: string, objectId: string): Promise<UploadSessionRow | undefined> {
    const row = await this.read((em) =>
      em.findOne(UploadSessionRow, { tenantId, objectId }, { orderBy: { createdAt: "desc" } }),
    );
    return row ?? undefined;
  }

  async list(tenantId: string, filter: ListFilter, after: Cursor | undefined, limit: number): Promise<StoredObjectView[]> {
    const where: Record<string, unknown> = { tenantId, deletedAt: null };
    for (const [key, value] of Object.entries(filter)) if (value !== undefined) where[key] = value;
    if (after) {
      where.$or = [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, id: { $lt: after.id } }];
    }
    const rows = await this.read((em) =>
      em.find(StoredObjectRow, where, { orderBy: { createdAt: "desc", id: "desc" }, limit }),
    );
    return rows.map(toStoredObjectView);
  }

  /** Refresh of the upload URL: a new session row, audited; only while PENDING_UPLOAD. */
  async addSession(session: UploadSessionRow, audit: AuditRecord): Promise<boolean> {
    return this.tx(async (em) => {
      const pending = await em.count(StoredObjectRow, { ...live(session.tenantId, session.objectId), status: "PENDING_UPLOAD" });
      if (pending === 0) return false;
      await em.insert(UploadSessionRow, session);
      await writeAudit(em, audit);
      return true;
    });
  }

  async markCompleted(actor: Actor, id: string, checksumMd5: string, now: Date): Promise<boolean> {
    return this.tx(async (em) => {
      const changed = await em.nativeUpdate(
        StoredObjectRow,
        { ...live(actor.tenantId, id), status: "PENDING_UPLOAD" },
        { status: "SCANNING", checksumMd5, uploadedAt: now, updatedAt: now },
      );
      if (changed === 0) return false;
      await em.nativeUpdate(UploadSessionRow, { tenantId: actor.tenantId, objectId: id, completedAt: null }, { completedAt: now });
      await writeAudit(em, { objectId: id, action: "UPLOAD_COMPLETED", actor, details: { checksum: checksumMd5 }, at: now });
      return true;
    });
  }

  /** A failed verification: the row is soft-deleted; the bucket delete follows (and is retried). */
  async failUpload(actor: Actor, id: string, reason: DeleteReason, details: Record<string, unknown>, now: Date): Promise<boolean> {
    return this.tx(async (em) => {
      const changed = await em.nativeUpdate(
        StoredObjectRow,
        { ...live(actor.tenantId, id), status: "PENDING_UPLOAD" },
        { deletedAt: now, deleteReason: reason, storageDeletePending: true, updatedAt: now },
      );
      if (changed === 0) return false;
      await writeAudit(em, { objectId: id, action: "UPLOAD_FAILED", actor, result: "FAILURE", details, at: now });
      return true;
    });
  }

  async finishScan(
    actor: Actor,
    id: string,
    result: ScanResultView,
    next: { status: "READY" | "REJECTED"; retentionPolicy: string; retentionExpiresAt: Date | null },
    now: Date,
    withinTx?: (em: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    return this.tx(async (em) => {
      const changed = await em.nativeUpdate(
        StoredObjectRow,
        { ...live(actor.tenantId, id), status: "SCANNING" },
        { ...next, scanResult: result as unknown as Record<string, unknown>, updatedAt: now, readyAt: next.status === "READY" ? now : null },
      );
      if (changed === 0) return false;
      const action = next.status === "READY" ? "SCAN_PASSED" : "SCAN_FAILED";
      const failed = result.checks.filter((c) => !c.passed).map((c) => ({ check: c.name, reason: c.reason }));
      await writeAudit(em, { objectId: id, action, actor, result: next.status === "READY" ? "SUCCESS" : "FAILURE", details: { failed }, at: now });
      if (withinTx) await withinTx(em);
      return true;
    });
  }

  /** Soft-deletes unless held; answers what stopped it, if anything. */
  async softDelete(actor: Actor, id: string, now: Date): Promise<"deleted" | "held" | "missing"> {
    return this.tx(async (em) => {
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

  /**
   * Expiry re-checks every condition in the same statement (no hold, not a permanent policy,
   * deadline passed, not yet deleted), so a hold placed a moment before always wins.
   */
  async expire(actor: Actor, id: string, now: Date): Promise<boolean> {
    return this.tx(async (em) => {
      const changed = await em.nativeUpdate(
        StoredObjectRow,
        {
          ...live(actor.tenantId, id),
          legalHoldPlacedAt: null,
          retentionPolicy: { $nin: [...PERMANENT_POLICIES] },
          retentionExpiresAt: { $lte: now },
        },
        { deletedAt: now, deleteReason: "EXPIRED", storageDeletePending: true, isCurrent: false, updatedAt: now },
      );
      if (changed === 0) return false;
      await writeAudit(em, { objectId: id, action: "OBJECT_EXPIRED", actor, at: now });
      return true;
    });
  }

  async markStorageDeleted(tenantId: string, id: string): Promise<void> {
    await this.read((em) => em.nativeUpdate(StoredObjectRow, { tenantId, id }, { storageDeletePending: false }));
  }

  async setHold(actor: Actor, id: string, hold: { reason: string } | null, now: Date): Promise<"changed" | "unchanged" | "missing"> {
    return this.tx(async (em) => {
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

  async audit(record: AuditRecord): Promise<void> {
    await this.tx((em) => writeAudit(em, record));
  }

  /** Live rows whose deadline passed, the oldest first, across tenants (the sweep). */
  async overdue(now: Date, limit: number): Promise<StoredObjectRow[]> {
    return this.read((em) =>
      em.find(
        StoredObjectRow,
        { deletedAt: null, legalHoldPlacedAt: null, retentionExpiresAt: { $lte: now }, retentionPolicy: { $nin: [...PERMANENT_POLICIES] } },
        { orderBy: { retentionExpiresAt: "asc" }, limit },
      ),
    );
  }

  async pendingStorageDeletes(limit: number): Promise<StoredObjectRow[]> {
    return this.read((em) => em.find(StoredObjectRow, { storageDeletePending: true }, { limit }));
  }

  /**
   * Which of these bucket keys a row still owns: live rows, and deleted rows whose storage delete
   * is still pending (the sweep finishes those through their rows, with their audit).
   */
  async liveStorageKeys(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const tenants = [...new Set(keys.map((k) => k.split("/")[1] ?? ""))].map(decodeURIComponent);
    const rows = await this.read((em) =>
      em.find(
        StoredObjectRow,
        { tenantId: { $in: tenants }, storageKey: { $in: keys }, $or: [{ deletedAt: null }, { storageDeletePending: true }] },
        { fields: ["storageKey"] },
      ),
    );
    return new Set(rows.map((r) => r.storageKey));
  }

  async withTransaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.tx(work);
  }
}
