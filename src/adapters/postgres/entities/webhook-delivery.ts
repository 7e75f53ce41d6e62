import { EntitySchema } from "@mikro-orm/core";

/** One event for one endpoint; `id` is the `webhook-id` the receiver sees on every attempt. */
export class WebhookDeliveryRow {
  id!: string;
  tenantId!: string;
  endpointId!: string;
  auditEntryId!: string;
  eventType!: string;
  payload!: Record<string, unknown>;
  status!: string;
  attempts = 0;
  lastStatusCode?: number | null;
  lastError?: string | null;
  lastAttemptAt?: Date | null;
  workflowStartedAt?: Date | null;
  createdAt!: Date;
  deliveredAt?: Date | null;
}

export const WebhookDeliverySchema = new EntitySchema<WebhookDeliveryRow>({
  class: WebhookDeliveryRow,
  tableName: "webhook_deliveries",
  properties: {
    id: { type: "uuid", primary: true },
    tenantId: { type: "string" },
    endpointId: { type: "uuid" },
    auditEntryId: { type: "uuid" },
    eventType: { type: "string" },
    payload: { type: "json" },
    status: { type: "string" },
    attempts: { type: "integer" },
    lastStatusCode: { type: "integer", nullable: true },
    lastError: { type: "text", nullable: true },
    lastAttemptAt: { type: "Date", nullable: true },
    workflowStartedAt: { type: "Date", nullable: true },
    createdAt: { type: "Date" },
    deliveredAt: { type: "Date", nullable: true },
  },
});
