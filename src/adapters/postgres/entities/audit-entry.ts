import { EntitySchema } from "@mikro-orm/core";

export class AuditEntryRow {
  id!: string;
  tenantId!: string;
  objectId!: string;
  action!: string;
  actorId!: string;
  requestId?: string | null;
  /** Filled by the database trigger when null (see migration 0004). */
  correlationId?: string | null;
  result!: string;
  details?: Record<string, unknown> | null;
  occurredAt!: Date;
}

export const AuditEntrySchema = new EntitySchema<AuditEntryRow>({
  class: AuditEntryRow,
  tableName: "audit_entries",
  properties: {
    id: { type: "uuid", primary: true },
    tenantId: { type: "string" },
    objectId: { type: "uuid" },
    action: { type: "string" },
    actorId: { type: "string" },
    requestId: { type: "string", nullable: true },
    correlationId: { type: "string", nullable: true },
    result: { type: "string" },
    details: { type: "json", nullable: true },
    occurredAt: { type: "Date" },
  },
});
