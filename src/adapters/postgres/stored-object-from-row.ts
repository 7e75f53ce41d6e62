import type { ObjectClassName, RetentionPolicyName } from "../../domain/files/object-classes.js";
import type { DeleteReason, ObjectRecord, ObjectStatusName, ScanResultView, StoredObjectView } from "../../domain/files/stored-object.js";
import type { StoredObjectRow } from "./entities/stored-object.js";

const iso = (d?: Date | null) => (d ? new Date(d).toISOString() : undefined);

export function toStoredObjectView(row: StoredObjectRow): StoredObjectView {
  return {
    id: row.id,
    tenantId: row.tenantId,
    storageKey: row.storageKey,
    status: row.status as ObjectStatusName,
    objectClass: row.objectClass as ObjectClassName,
    ownerEntityType: row.ownerEntityType,
    ownerEntityId: row.ownerEntityId,
    originalFilename: row.originalFilename,
    contentType: row.contentType,
    fileSize: Number(row.fileSize),
    isCurrent: row.isCurrent,
    legalHold: row.legalHoldPlacedAt
      ? { reason: row.legalHoldReason ?? "", placedBy: row.legalHoldPlacedBy ?? "", placedAt: iso(row.legalHoldPlacedAt)! }
      : undefined,
    retentionPolicy: row.retentionPolicy as RetentionPolicyName,
    retentionExpiresAt: iso(row.retentionExpiresAt),
    scanResult: (row.scanResult as ScanResultView | null) ?? undefined,
    checksum: row.checksumMd5 ?? undefined,
    contentSha256: row.contentSha256 ?? undefined,
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
    uploadedAt: iso(row.uploadedAt),
  };
}

export function toObjectRecord(row: StoredObjectRow): ObjectRecord {
  return {
    ...toStoredObjectView(row),
    deleted: !!row.deletedAt,
    deleteReason: (row.deleteReason as DeleteReason | null) ?? undefined,
    verificationFailure: row.verificationFailure ?? undefined,
    storageDeletePending: row.storageDeletePending,
  };
}
