import type { MikroORM } from "@mikro-orm/postgresql";
import type { LifecycleObjects, Settled } from "../../app/files/lifecycle/port.js";
import type { AuditRecord, UploadSession } from "../../app/files/port.js";
import type { Actor } from "../../domain/actor.js";
import type { ExpiryCandidate } from "../../domain/files/retention.js";
import type { ScanSettlement } from "../../domain/files/scan-settlement.js";
import type { ObjectRecord, ScanResultView } from "../../domain/files/stored-object.js";
import type { UploadMismatch, VerifiedDigests } from "../../domain/files/upload-verification.js";
import { writeAuditOnce } from "./audit-once.js";
import { writeAudit } from "./audit-store.js";
import { completeUploadStatement } from "./complete-upload-statement.js";
import { inTransaction, withDatabase } from "./database-work.js";
import { StoredObjectRow } from "./entities/stored-object.js";
import { live, NOT_HELD } from "./row-conditions.js";
import { moveToScanning, settleScan } from "./settle-scan.js";
import { toObjectRecord } from "./stored-object-from-row.js";
import { findObjectRecord, latestUploadSession } from "./stored-object-reads.js";
import { expireStoredObject, markStorageDeleted } from "./stored-object-removal.js";

/**
 * The lifecycle's rows in PostgreSQL. Each transition states its precondition in the UPDATE
 * itself, so a concurrent change is never overwritten by a decision taken on a stale read.
 */
export class LifecycleObjectStore implements LifecycleObjects {
  constructor(private readonly orm: MikroORM) {}

  findRecord(tenantId: string, id: string): Promise<ObjectRecord | undefined> {
    return findObjectRecord(this.orm, tenantId, id);
  }

  latestSession(tenantId: string, objectId: string): Promise<UploadSession | undefined> {
    return latestUploadSession(this.orm, tenantId, objectId);
  }

  markCompleted(actor: Actor, id: string, digests: VerifiedDigests, now: Date): Promise<boolean> {
    return inTransaction(this.orm, (em) => moveToScanning(em, actor, id, digests, now));
  }

  async completeAndSettle(actor: Actor, id: string, digests: VerifiedDigests, result: ScanResultView, settlement: ScanSettlement, now: Date): Promise<Settled> {
    if (settlement.supersedes) {
      return inTransaction(this.orm, async (em) => {
        if (!(await moveToScanning(em, actor, id, digests, now))) return { changed: false, superseded: [] };
        return settleScan(em, actor, id, result, settlement, now);
      });
    }
    const statement = completeUploadStatement(actor, id, digests, result, settlement, now);
    const rows = await withDatabase(this.orm, (em) => em.getConnection().execute<StoredObjectRow[]>(statement.sql, statement.params));
    return rows[0] ? { changed: true, superseded: [], record: toObjectRecord(rows[0]) } : { changed: false, superseded: [] };
  }

  finishScan(actor: Actor, id: string, result: ScanResultView, settlement: ScanSettlement, now: Date, md5?: string): Promise<Settled> {
    return inTransaction(this.orm, (em) => settleScan(em, actor, id, result, settlement, now, md5));
  }

  failUpload(actor: Actor, id: string, reason: UploadMismatch["reason"], details: Record<string, unknown>, now: Date): Promise<boolean> {
    return inTransaction(this.orm, async (em) => {
      const changed = await em.nativeUpdate(
        StoredObjectRow,
        { ...live(actor.tenantId, id), status: "PENDING_UPLOAD", ...NOT_HELD },
        { deletedAt: now, deleteReason: "CHECKSUM_MISMATCH", verificationFailure: reason, storageDeletePending: true, updatedAt: now },
      );
      if (changed === 0) return false;
      await writeAudit(em, { objectId: id, action: "UPLOAD_FAILED", actor, result: "FAILURE", details, at: now });
      return true;
    });
  }

  expire(actor: Actor, id: string, now: Date, isDue: (candidate: ExpiryCandidate) => boolean): Promise<boolean> {
    return expireStoredObject(this.orm, actor, id, now, isDue);
  }

  markStorageDeleted(tenantId: string, id: string): Promise<void> {
    return markStorageDeleted(this.orm, tenantId, id);
  }

  auditOnce(record: AuditRecord): Promise<void> {
    return writeAuditOnce(this.orm, record);
  }
}
