import type { Actor } from "../../domain/actor.js";
import type { WebhookEndpointView } from "../../domain/webhooks/endpoint.js";
import { readPage } from "../../domain/pagination.js";
import { endpointNotFound, type WebhooksDeps } from "./deps.js";

export async function getWebhookEndpoint(deps: WebhooksDeps, actor: Actor, id: string): Promise<WebhookEndpointView> {
  const found = await deps.store.find(actor.tenantId, id);
  if (!found) throw endpointNotFound(id);
  return found;
}

const FILTER_KEY = "webhook-endpoints";

/** Newest first, keyset pages (AIP-158). */
export async function listWebhookEndpoints(deps: WebhooksDeps, actor: Actor, pageSize: number, pageToken: string) {
  return readPage(
    { pageSize, pageToken, filterKey: FILTER_KEY },
    (after, limit) => deps.store.list(actor.tenantId, after, limit),
    (endpoint) => ({ at: endpoint.createdAt, id: endpoint.id }),
  );
}
