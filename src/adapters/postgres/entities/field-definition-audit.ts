import { EntitySchema } from "@mikro-orm/core";

/** Who changed a definition, when, and between which versions. */
export class FieldDefinitionAuditRow {
  id!: string;
  tenantId!: string;
  definitionId!: string;
  action!: string;
  actorId!: string;
  requestId?: string | null;
  oldVersion?: number | null;
  newVersion?: number | null;
  changes!: Record<string, unknown>;
  occurredAt!: Date;
}

export const FieldDefinitionAuditSchema = new EntitySchema<FieldDefinitionAuditRow>({
  class: FieldDefinitionAuditRow,
  tableName: "custom_field_definition_audit",
  properties: {
    id: { type: "uuid", primary: true },
    tenantId: { type: "string" },
    definitionId: { type: "string" },
    action: { type: "string" },
    actorId: { type: "string" },
    requestId: { type: "string", nullable: true },
    oldVersion: { type: "integer", nullable: true },
    newVersion: { type: "integer", nullable: true },
    changes: { type: "json" },
    occurredAt: { type: "Date" },
  },
});
