import { AppError } from "../../domain/errors.js";
import type { Actor } from "../../domain/files/stored-object.js";
import type { Cursor } from "../../domain/pagination.js";
import type { WebhookEndpointView } from "../../domain/webhooks/endpoint.js";

export type { Actor };

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

export interface WebhooksDeps {
  store: WebhookEndpointStorePort;
  /** Refuses (WEBHOOK_URL_NOT_ALLOWED) a URL the service may not call; resolves its host. */
  checkUrl(url: string): Promise<void>;
  /** A Standard Webhooks secret: `whsec_` and base64 of random bytes. */
  newSecret(): string;
  now(): Date;
  newId(): string;
}

/** Another tenant's endpoint behaves exactly like one that does not exist. */
export function endpointNotFound(id: string): AppError {
  return new AppError("WEBHOOK_ENDPOINT_NOT_FOUND", `webhook endpoint ${id} not found`);
}
