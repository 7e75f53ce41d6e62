import { v7 as uuidv7 } from "uuid";
import type { AuditRecord, NewStoredObject, UploadSession } from "../../app/files/port.js";
import { correlationOf } from "../../domain/actor.js";
import { StoredObjectRow } from "./entities/stored-object.js";

/**
 * Initiate as one statement: the object row, its upload session and UPLOAD_INITIATED. One round
 * trip and atomic without an explicit transaction (BEGIN, three INSERTs and COMMIT were five, and
 * the largest share of initiate's database cost). A repeat with the same ids fails on the primary
 * key and writes nothing. The audit entry carries its class and owner itself: the fill trigger
 * (migration 0004) reads the object row, which a statement cannot see before it ends.
 *
 * The tenant's pending-upload quota is counted in the same statement (no round trip more), over
 * the partial index `stored_objects_tenant_pending` and never past the limit. When it is full the
 * object row is not inserted, so neither is anything that selects from it: nothing is written and
 * the statement affects no row. No lock: each statement counts what was committed when it began,
 * so initiates of one tenant running at the same moment can each take the last place; the quota
 * is passed by at most the number of such initiates in flight, which the API's database pool
 * bounds (DATABASE_POOL_MAX per replica). A lock would serialize every initiate of a tenant for a
 * bound that needs to hold a tenant's order of magnitude, not its last unit.
 */
const SQL = `
with quota as (
  select count(*) < ? as open
    from (select 1 from stored_objects where tenant_id = ? and status = 'PENDING_UPLOAD' and deleted_at is null limit ?) pending
), created as (
  insert into stored_objects (id, tenant_id, storage_key, status, object_class, owner_entity_type, owner_entity_id,
                              original_filename, content_type, file_size, is_current, retention_policy,
                              retention_expires_at, workflow_id, storage_delete_pending, created_at, updated_at)
  select ?, ?, ?, 'PENDING_UPLOAD', ?, ?, ?, ?, ?, ?, false, 'TEMP_UPLOAD_24H', ?, ?, false, ?, ?
    from quota where open
  returning tenant_id, id, object_class, owner_entity_type, owner_entity_id
), session as (
  insert into upload_sessions (id, tenant_id, object_id, initiated_by, presign_expires_at, expected_content_type,
                               expected_file_size, content_md5, content_sha256, policy_snapshot, created_at)
  select ?, tenant_id, id, ?, ?, ?, ?, ?, ?, ?::jsonb, ? from created
)
insert into audit_entries (id, tenant_id, object_id, action, actor_id, request_id, correlation_id, result, details, occurred_at,
                           object_class, owner_type, owner_id)
select ?, tenant_id, id, ?, ?, ?, ?, ?, ?::jsonb, ?, object_class, owner_entity_type, owner_entity_id from created`;

export function initiateUploadStatement(object: NewStoredObject, session: UploadSession, audit: AuditRecord, maxPending: number): { sql: string; params: unknown[] } {
  const params = [
    maxPending, object.tenantId, maxPending,
    object.id, object.tenantId, object.storageKey, object.objectClass, object.ownerEntityType, object.ownerEntityId,
    object.originalFilename, object.contentType, String(object.fileSize), object.pendingDeadline, object.workflowId,
    object.createdAt, object.createdAt,
    session.id, session.initiatedBy, session.presignExpiresAt, session.expectedContentType,
    String(session.expectedFileSize), session.contentMd5 ?? null, session.contentSha256 ?? null,
    JSON.stringify(session.policySnapshot), session.createdAt,
    uuidv7(), audit.action, audit.actor.actorId, audit.actor.requestId ?? null, correlationOf(audit.actor),
    audit.result ?? "SUCCESS", audit.details === undefined ? null : JSON.stringify(audit.details), audit.at,
  ];
  return { sql: SQL, params };
}

/** The row as initiate stores it, for the answer (the statement returns nothing to map). */
export function initiatedRow(object: NewStoredObject): StoredObjectRow {
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
