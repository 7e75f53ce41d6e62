/**
 * What the endpoint use cases (CRUD, secret rotation) need from outside: the endpoint store
 * (src/adapters/postgres/webhook-endpoint-store.ts). Delivery has its own port in delivery/port.ts.
 */
import type { Cursor } from "../../domain/pagination.js";
import type { WebhookEndpointView } from "../../domain/webhooks/endpoint.js";

export interface NewWebhookEndpoint {
  id: string;
  tenantId: string;
  url: string;
  eventTypes: string[];
  secret: string;
  createdAt: Date;
}

/** Only what a caller changes; `disabledReason` goes with `enabled`. */
export interface WebhookEndpointChanges {
  url?: string;
  eventTypes?: string[];
  enabled?: boolean;
  disabledReason?: string | null;
}

/** A new secret for an endpoint; the one it replaces keeps signing until `previousSecretExpiresAt`. */
export interface SecretRotation {
  tenantId: string;
  id: string;
  secret: string;
  previousSecretExpiresAt: Date;
  at: Date;
  /** The audit row written with the change. */
  audit: { id: string; actorId: string; requestId?: string };
}

export interface WebhookEndpointCatalog {
  /** Undefined, and nothing written, when the tenant has `maxPerTenant` endpoints already. */
  insert(endpoint: NewWebhookEndpoint, maxPerTenant: number): Promise<WebhookEndpointView | undefined>;
  /** Stores the new secret (encrypted) and audits the rotation in one transaction; undefined when not found. */
  rotateSecret(rotation: SecretRotation): Promise<WebhookEndpointView | undefined>;
  find(tenantId: string, id: string): Promise<WebhookEndpointView | undefined>;
  list(tenantId: string, after: Cursor | undefined, limit: number): Promise<WebhookEndpointView[]>;
  update(tenantId: string, id: string, changes: WebhookEndpointChanges, at: Date): Promise<WebhookEndpointView | undefined>;
  delete(tenantId: string, id: string): Promise<boolean>;
}
