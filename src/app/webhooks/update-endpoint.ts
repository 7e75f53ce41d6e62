import type { Actor } from "../../domain/actor.js";
import { checkEventTypes, type WebhookEndpointView } from "../../domain/webhooks/endpoint.js";
import { endpointNotFound, type WebhooksDeps } from "./deps.js";
import type { WebhookEndpointChanges } from "./port.js";

export interface UpdateEndpointInput {
  id: string;
  url?: string;
  eventTypes?: string[];
  enabled?: boolean;
}

/** A new URL is checked like at create; enabling clears the reason the endpoint was disabled. */
export async function updateWebhookEndpoint(deps: WebhooksDeps, actor: Actor, input: UpdateEndpointInput): Promise<WebhookEndpointView> {
  if (input.eventTypes !== undefined) checkEventTypes(input.eventTypes);
  if (input.url !== undefined) await deps.checkUrl(input.url);
  const changes: WebhookEndpointChanges = {};
  if (input.url !== undefined) changes.url = input.url;
  if (input.eventTypes !== undefined) changes.eventTypes = [...new Set(input.eventTypes)];
  if (input.enabled !== undefined) {
    changes.enabled = input.enabled;
    changes.disabledReason = input.enabled ? null : `disabled by ${actor.actorId}`;
  }
  const updated = await deps.store.update(actor.tenantId, input.id, changes, deps.now());
  if (!updated) throw endpointNotFound(input.id);
  return updated;
}
