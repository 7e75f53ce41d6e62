import type { EntityManager } from "@mikro-orm/postgresql";
import { type Actor, SYSTEM_ACTOR_ID } from "../../domain/actor.js";
import type { ScanSettlement } from "../../domain/files/scan-settlement.js";
import type { ScanResultView } from "../../domain/files/stored-object.js";
import type { Settled } from "../../app/files/lifecycle/port.js";
import type { VerifiedDigests } from "../../domain/files/upload-verification.js";
import { writeAudit } from "./audit-store.js";
import { StoredObjectRow } from "./entities/stored-object.js";
import { UploadSessionRow } from "./entities/upload-session.js";
import { makeCurrent } from "./replacement.js";
import { live } from "./row-conditions.js";
import { scanAuditDetails } from "./scan-audit.js";
import { uploadCompletedDetails } from "./upload-completed-audit.js";

/** PENDING_UPLOAD → SCANNING inside the caller's transaction; false when the row was not pending. */
export async function moveToScanning(em: EntityManager, actor: Actor, id: string, digests: VerifiedDigests, now: Date): Promise<boolean> {
  const changed = await em.nativeUpdate(
    StoredObjectRow,
    { ...live(actor.tenantId, id), status: "PENDING_UPLOAD" },
    { status: "SCANNING", checksumMd5: digests.md5, contentSha256: digests.sha256 ?? null, uploadedAt: now, updatedAt: now },
  );
  if (changed === 0) return false;
  await em.nativeUpdate(UploadSessionRow, { tenantId: actor.tenantId, objectId: id, completedAt: null }, { completedAt: now });
  await writeAudit(em, { objectId: id, action: "UPLOAD_COMPLETED", actor, details: uploadCompletedDetails(digests), at: now });
  return true;
}

/**
 * SCANNING → READY/REJECTED inside the caller's transaction; a photo or logo may become current.
 * `md5`, computed by the scan's read, fills a checksum complete left empty (never replaces one).
 */
export async function settleScan(em: EntityManager, actor: Actor, id: string, result: ScanResultView, settlement: ScanSettlement, now: Date, md5?: string): Promise<Settled> {
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
  if (md5) await em.nativeUpdate(StoredObjectRow, { ...live(actor.tenantId, id), checksumMd5: null }, { checksumMd5: md5 });
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
