import type { JsonObject, MessageInitShape } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { AuditEntryFilter } from "@files-and-fields/client/gen/filestorage/v1/audit_service_pb.js";
import { AuditAction, type AuditEntrySchema, ObjectClass, type UploadSessionSchema } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import type { AuditEntryView, UploadSessionView } from "../../app/audit/port.js";
import type { AuditFilter } from "../../domain/audit/audit-query.js";
import { enumValue, ts } from "./stored-object-message.js";

export function toAuditEntryMessage(entry: AuditEntryView): MessageInitShape<typeof AuditEntrySchema> {
  return {
    id: entry.id,
    objectId: entry.objectId,
    action: enumValue(AuditAction, entry.action),
    actorId: entry.actorId,
    requestId: entry.requestId ?? "",
    result: entry.result,
    occurredAt: ts(entry.occurredAt),
    details: (entry.details ?? {}) as JsonObject,
    correlationId: entry.correlationId,
    objectClass: enumValue(ObjectClass, entry.objectClass ?? ""),
    ownerType: entry.ownerType ?? "",
    ownerId: entry.ownerId ?? "",
    chain: entry.chain ? { ...entry.chain, sequence: BigInt(entry.chain.sequence) } : undefined,
  };
}

export function toUploadSessionMessage(session: UploadSessionView): MessageInitShape<typeof UploadSessionSchema> {
  return {
    id: session.id,
    initiatedBy: session.initiatedBy,
    presignExpiresAt: ts(session.presignExpiresAt),
    expectedContentType: session.expectedContentType,
    expectedFileSize: BigInt(session.expectedFileSize),
    contentMd5: session.contentMd5 ?? "",
    contentSha256: session.contentSha256 ?? "",
    policySnapshot: session.policySnapshot as JsonObject,
    completedAt: ts(session.completedAt),
    createdAt: ts(session.createdAt),
  };
}

/** The contract's filter in domain terms; unset fields filter nothing. */
export function toAuditFilter(filter: AuditEntryFilter | undefined): AuditFilter {
  if (!filter) return {};
  return {
    actions: filter.actions.length > 0 ? filter.actions.map((action) => AuditAction[action]) : undefined,
    actorId: filter.actorId || undefined,
    objectId: filter.objectId ? filter.objectId.toLowerCase() : undefined,
    ownerType: filter.ownerType || undefined,
    ownerId: filter.ownerId || undefined,
    objectClass: filter.objectClass ? ObjectClass[filter.objectClass] : undefined,
    result: (filter.result || undefined) as AuditFilter["result"],
    correlationId: filter.correlationId || undefined,
    occurredAfter: filter.occurredAfter && timestampDate(filter.occurredAfter),
    occurredBefore: filter.occurredBefore && timestampDate(filter.occurredBefore),
  };
}
