/** The webhook endpoint store the endpoint use cases need (src/adapters/postgres implements it). */
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

export interface WebhookEndpointStorePort {
  insert(endpoint: NewWebhookEndpoint): Promise<WebhookEndpointView>;
  find(tenantId: string, id: string): Promise<WebhookEndpointView | undefined>;
  list(tenantId: string, after: Cursor | undefined, limit: number): Promise<WebhookEndpointView[]>;
  update(tenantId: string, id: string, changes: WebhookEndpointChanges, at: Date): Promise<WebhookEndpointView | undefined>;
  delete(tenantId: string, id: string): Promise<boolean>;
}
