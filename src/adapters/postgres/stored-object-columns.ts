/**
 * The columns of `stored_objects` under their entity names, for the statements of the upload hot
 * path that skip the ORM (a profile of the worker under load put MikroORM's query building and
 * hydration among its largest costs). The rows come back shaped like StoredObjectRow (entities/stored-object.ts): pg returns
 * timestamptz as Date, bigint as string and jsonb parsed, as the entity declares them.
 */
export const STORED_OBJECT_COLUMNS = `
  id, tenant_id as "tenantId", storage_key as "storageKey", status, object_class as "objectClass",
  owner_entity_type as "ownerEntityType", owner_entity_id as "ownerEntityId",
  original_filename as "originalFilename", content_type as "contentType", file_size as "fileSize",
  checksum_md5 as "checksumMd5", content_sha256 as "contentSha256", is_current as "isCurrent", legal_hold_reason as "legalHoldReason",
  legal_hold_placed_by as "legalHoldPlacedBy", legal_hold_placed_at as "legalHoldPlacedAt",
  retention_policy as "retentionPolicy", retention_expires_at as "retentionExpiresAt",
  scan_result as "scanResult", workflow_id as "workflowId", deleted_at as "deletedAt",
  delete_reason as "deleteReason", verification_failure as "verificationFailure",
  storage_delete_pending as "storageDeletePending", storage_delete_failed_runs as "storageDeleteFailedRuns",
  storage_delete_failed_run as "storageDeleteFailedRun", storage_delete_abandoned_at as "storageDeleteAbandonedAt",
  uploaded_at as "uploadedAt", ready_at as "readyAt", created_at as "createdAt", updated_at as "updatedAt"`;

/** One object by tenant and id, deleted or not. */
export const SELECT_STORED_OBJECT = `select ${STORED_OBJECT_COLUMNS} from stored_objects where tenant_id = ? and id = ?`;
