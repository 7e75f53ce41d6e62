import { type Actor, SYSTEM_ACTOR_ID } from "../../domain/actor.js";
import { v7 as uuidv7 } from "uuid";
import type { ScanSettlement } from "../../domain/files/scan-settlement.js";
import type { ScanResultView } from "../../domain/files/stored-object.js";
import type { VerifiedDigests } from "../../domain/files/upload-verification.js";
import { scanAuditDetails } from "./scan-audit.js";
import { uploadCompletedDetails } from "./upload-completed-audit.js";
import { STORED_OBJECT_COLUMNS } from "./stored-object-columns.js";

/**
 * The hot path of an upload as one statement: PENDING_UPLOAD straight to READY or REJECTED
 * (complete and an inline scan), the session stamped, UPLOAD_COMPLETED and the scan's entry
 * written, answering the row as it now is (none when nothing moved). One round trip and atomic without an explicit transaction; the WHERE clause makes a
 * repeat (a retried activity) change nothing. Not for replaceable classes: those take the owner
 * lock (see replacement.ts).
 */
const SQL = `
with moved as (
  update stored_objects
     set status = ?, checksum_md5 = ?, content_sha256 = ?, uploaded_at = ?, updated_at = ?, scan_result = ?::jsonb,
         retention_policy = ?, retention_expires_at = ?, ready_at = ?, is_current = ?
   where tenant_id = ? and id = ? and deleted_at is null and status = 'PENDING_UPLOAD'
  returning *
), stamped as (
  update upload_sessions set completed_at = ?
   where tenant_id = ? and object_id = ? and completed_at is null and exists (select 1 from moved)
), audited as (
  insert into audit_entries (id, tenant_id, object_id, action, actor_id, request_id, result, details, occurred_at)
  select e.id::uuid, moved.tenant_id, moved.id, e.action, e.actor_id, e.request_id, e.result, e.details::jsonb, e.occurred_at::timestamptz
    from moved, (values (?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?)) as e(id, action, actor_id, request_id, result, details, occurred_at)
)
select ${STORED_OBJECT_COLUMNS} from moved`;

export function completeUploadStatement(
  actor: Actor,
  id: string,
  digests: VerifiedDigests,
  result: ScanResultView,
  settlement: ScanSettlement,
  now: Date,
): { sql: string; params: unknown[] } {
  const ready = settlement.status === "READY";
  const at = now.toISOString();
  const params = [
    settlement.status, digests.md5 ?? null, digests.sha256 ?? null, now, now, JSON.stringify(result),
    settlement.retentionPolicy, settlement.retentionExpiresAt, ready ? now : null, ready,
    actor.tenantId, id,
    now, actor.tenantId, id,
    uuidv7(), "UPLOAD_COMPLETED", actor.actorId, actor.requestId ?? null, "SUCCESS", JSON.stringify(uploadCompletedDetails(digests)), at,
    uuidv7(), ready ? "SCAN_PASSED" : "SCAN_FAILED", SYSTEM_ACTOR_ID, actor.requestId ?? null, ready ? "SUCCESS" : "FAILURE",
    JSON.stringify(scanAuditDetails(result)), at,
  ];
  return { sql: SQL, params };
}
