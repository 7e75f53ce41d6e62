import { EntitySchema } from "@mikro-orm/core";

export class WebhookEndpointRow {
  id!: string;
  tenantId!: string;
  url!: string;
  eventTypes: string[] = [];
  /** A secret from before encryption at rest; null once `encryptWebhookSecrets` moved it. */
  secret?: string | null;
  /** The signing secret, encrypted (src/adapters/webhooks/secret-cipher.ts); returned in clear only at create and rotation. */
  secretCiphertext?: string | null;
  /** The secret before the last rotation, signing too until `previousSecretExpiresAt`. */
  previousSecretCiphertext?: string | null;
  previousSecretExpiresAt?: Date | null;
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
    secret: { type: "string", nullable: true },
    secretCiphertext: { type: "text", nullable: true },
    previousSecretCiphertext: { type: "text", nullable: true },
    previousSecretExpiresAt: { type: "Date", nullable: true },
    enabled: { type: "boolean" },
    disabledReason: { type: "text", nullable: true },
    createdAt: { type: "Date" },
    updatedAt: { type: "Date" },
  },
});
