import type { JsonObject, MessageInitShape } from "@bufbuild/protobuf";
import type { FieldDefinitionAuditEntrySchema } from "@files-and-fields/client/gen/customfields/v1/types_pb.js";
import type { DefinitionAuditEntry } from "../../app/customfields/port.js";
import { ts } from "./stored-object-message.js";

export function toDefinitionAuditMessage(entry: DefinitionAuditEntry): MessageInitShape<typeof FieldDefinitionAuditEntrySchema> {
  return {
    id: entry.id,
    definitionId: entry.definitionId,
    action: entry.action,
    actorId: entry.actorId,
    requestId: entry.requestId ?? "",
    oldVersion: entry.oldVersion ?? 0,
    newVersion: entry.newVersion ?? 0,
    // A round trip through JSON: the changes hold Dates and nested definitions.
    changes: JSON.parse(JSON.stringify(entry.changes)) as JsonObject,
    occurredAt: ts(entry.occurredAt),
  };
}
