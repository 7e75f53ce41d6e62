import type { Actor } from "../../domain/actor.js";
import { endpointNotFound, type WebhooksDeps } from "./deps.js";

/** Deliveries still pending for the endpoint find it gone at their next attempt and stop. */
export async function deleteWebhookEndpoint(deps: WebhooksDeps, actor: Actor, id: string): Promise<void> {
  if (!(await deps.store.delete(actor.tenantId, id))) throw endpointNotFound(id);
}
