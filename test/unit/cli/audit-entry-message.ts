import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { AuditAction, type AuditEntry, AuditEntrySchema, ObjectClass } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { parseCanonical } from "../../../src/domain/audit/chain/canonical-entry.js";
import type { ChainedEntry } from "../../../src/domain/audit/chain/chain-link.js";

/** The contract's message of a synthetic chain link, its fields read from its canonical text. */
export function auditEntryMessageOf(link: ChainedEntry): AuditEntry {
  const fields = parseCanonical(link.canonical)!;
  return create(AuditEntrySchema, {
    id: link.id,
    objectId: fields.objectId,
    action: AuditAction[fields.action as keyof typeof AuditAction],
    actorId: fields.actorId,
    requestId: fields.requestId ?? "",
    result: fields.result,
    occurredAt: timestampFromDate(new Date(fields.occurredAt)),
    details: fields.details as never,
    correlationId: fields.correlationId,
    objectClass: fields.objectClass ? ObjectClass[fields.objectClass as keyof typeof ObjectClass] : 0,
    ownerType: fields.ownerType ?? "",
    ownerId: fields.ownerId ?? "",
    chain: link.sequence === null ? undefined : { sequence: BigInt(link.sequence), previousHash: link.previousHash, hash: link.hash, canonical: link.canonical },
  });
}
