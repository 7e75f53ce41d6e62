import { create } from "@bufbuild/protobuf";
import { timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import {
  ObjectClass,
  ObjectStatus,
  RetentionPolicy,
  type StoredObject,
  StoredObjectSchema,
} from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import type { StoredObjectView } from "../../domain/files/stored-object.js";

export const ts = (iso?: string | Date | null): Timestamp | undefined => (iso ? timestampFromDate(new Date(iso)) : undefined);

export function enumValue<E extends Record<string, string | number>>(e: E, name: string): E[keyof E] {
  const value = e[name as keyof E];
  return (typeof value === "number" ? value : 0) as E[keyof E];
}

export function toStoredObjectMessage(view: StoredObjectView): StoredObject {
  return create(StoredObjectSchema, {
    id: view.id,
    storageKey: view.storageKey,
    status: enumValue(ObjectStatus, view.status),
    objectClass: enumValue(ObjectClass, view.objectClass),
    ownerEntityType: view.ownerEntityType,
    ownerEntityId: view.ownerEntityId,
    originalFilename: view.originalFilename,
    contentType: view.contentType,
    fileSize: BigInt(view.fileSize),
    isCurrent: view.isCurrent,
    isLegalHold: !!view.legalHold,
    legalHold: view.legalHold
      ? { reason: view.legalHold.reason, placedBy: view.legalHold.placedBy, placedAt: ts(view.legalHold.placedAt) }
      : undefined,
    retentionPolicy: enumValue(RetentionPolicy, view.retentionPolicy),
    retentionExpiresAt: ts(view.retentionExpiresAt),
    scanResult: view.scanResult
      ? {
          passed: view.scanResult.passed,
          checks: view.scanResult.checks.map((c) => ({ name: c.name, passed: c.passed, reason: c.reason ?? "", message: c.message ?? "" })),
          finishedAt: ts(view.scanResult.finishedAt),
          bytesRead: BigInt(view.scanResult.bytesRead),
          malware: view.scanResult.malware
            ? {
                ...view.scanResult.malware,
                signature: view.scanResult.malware.signature ?? "",
                databaseVersion: BigInt(view.scanResult.malware.databaseVersion ?? 0),
                databaseTime: ts(view.scanResult.malware.databaseTime),
              }
            : undefined,
        }
      : undefined,
    checksum: view.checksum ?? "",
    contentSha256: view.contentSha256 ?? "",
    createdAt: ts(view.createdAt),
    updatedAt: ts(view.updatedAt),
    uploadedAt: ts(view.uploadedAt),
  });
}
