import type { WebhookEndpointView } from "../../domain/webhooks/endpoint.js";
import { decodePageToken, encodePageToken, pageSizeOf } from "../../domain/pagination.js";
import { endpointNotFound, type Actor, type WebhooksDeps } from "./deps.js";

export async function getWebhookEndpoint(deps: WebhooksDeps, actor: Actor, id: string): Promise<WebhookEndpointView> {
  const found = await deps.store.find(actor.tenantId, id);
  if (!found) throw endpointNotFound(id);
  return found;
}

const FILTER_KEY = "webhook-endpoints";

/** Newest first, keyset pages (AIP-158). */
export async function listWebhookEndpoints(deps: WebhooksDeps, actor: Actor, pageSize: number, pageToken: string) {
  const limit = pageSizeOf(pageSize);
  const after = decodePageToken(pageToken, FILTER_KEY);
  const rows = await deps.store.list(actor.tenantId, after, limit + 1);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const nextPageToken = rows.length > limit && last ? encodePageToken({ createdAt: last.createdAt, id: last.id }, FILTER_KEY) : "";
  return { items, nextPageToken };
}
