import { AppError } from "../../domain/errors.js";
import type { WebhookEndpointCatalog } from "./port.js";

export interface WebhooksDeps {
  store: WebhookEndpointCatalog;
  /** Refuses (WEBHOOK_URL_NOT_ALLOWED) a URL the service may not call; resolves its host. */
  checkUrl(url: string): Promise<void>;
  /** A Standard Webhooks secret: `whsec_` and base64 of random bytes. */
  newSecret(): string;
  limits: { maxEndpointsPerTenant: number; secretOverlapSeconds: number };
  now(): Date;
  newId(): string;
}

/** Another tenant's endpoint behaves exactly like one that does not exist. */
export function endpointNotFound(id: string): AppError {
  return new AppError("WEBHOOK_ENDPOINT_NOT_FOUND", `webhook endpoint ${id} not found`);
}
