import type { Actor } from "../../domain/actor.js";
import { checkEventTypes, type WebhookEndpointView } from "../../domain/webhooks/endpoint.js";
import { endpointLimitReached } from "../../domain/webhooks/endpoint-quota.js";
import type { WebhooksDeps } from "./deps.js";

export interface CreateEndpointInput {
  url: string;
  eventTypes: string[];
}

/**
 * The secret is answered here (and at a rotation) and never again: the store keeps it encrypted,
 * only to sign. At most `maxEndpointsPerTenant` endpoints per tenant.
 */
export async function createWebhookEndpoint(
  deps: WebhooksDeps,
  actor: Actor,
  input: CreateEndpointInput,
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  checkEventTypes(input.eventTypes);
  await deps.checkUrl(input.url);
  const secret = deps.newSecret();
  const max = deps.limits.maxEndpointsPerTenant;
  const endpoint = await deps.store.insert(
    { id: deps.newId(), tenantId: actor.tenantId, url: input.url, eventTypes: [...new Set(input.eventTypes)], secret, createdAt: deps.now() },
    max,
  );
  if (!endpoint) throw endpointLimitReached(max);
  return { endpoint, secret };
}
