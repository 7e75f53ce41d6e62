import type { Actor } from "../../domain/actor.js";
import type { WebhookEndpointView } from "../../domain/webhooks/endpoint.js";
import { overlapEnd } from "../../domain/webhooks/signing-secrets.js";
import { endpointNotFound, type WebhooksDeps } from "./deps.js";

/**
 * A new secret, answered only here. The old one keeps signing next to it for the overlap, so a
 * receiver can switch without losing an event; a second rotation within the overlap drops the
 * oldest at once. Audited with the actor.
 */
export async function rotateWebhookSecret(deps: WebhooksDeps, actor: Actor, id: string): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const at = deps.now();
  const secret = deps.newSecret();
  const endpoint = await deps.store.rotateSecret({
    tenantId: actor.tenantId,
    id,
    secret,
    previousSecretExpiresAt: overlapEnd(at, deps.limits.secretOverlapSeconds),
    at,
    audit: { id: deps.newId(), actorId: actor.actorId, requestId: actor.requestId },
  });
  if (!endpoint) throw endpointNotFound(id);
  return { endpoint, secret };
}
