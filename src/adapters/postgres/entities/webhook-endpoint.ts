import { EntitySchema } from "@mikro-orm/core";

export class WebhookEndpointRow {
  id!: string;
  tenantId!: string;
  url!: string;
  eventTypes: string[] = [];
  /** Needed in clear to sign (HMAC); returned to the client only at create. */
  secret!: string;
  enabled = true;
  disabledReason?: string | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export const WebhookEndpointSchema = new EntitySchema<WebhookEndpointRow>({
  class: WebhookEndpointRow,
  tableName: "webhook_endpoints",
  properties: {
    id: { type: "uuid", primary: true },
    tenantId: { type: "string" },
    url: { type: "text" },
    eventTypes: { type: "string[]", columnType: "text[]" },
    secret: { type: "string" },
    enabled: { type: "boolean" },
    disabledReason: { type: "text", nullable: true },
    createdAt: { type: "Date" },
    updatedAt: { type: "Date" },
  },
});
