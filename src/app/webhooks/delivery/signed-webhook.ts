import { signingSecrets } from "../../../domain/webhooks/signing-secrets.js";
import type { WebhookDeliveryDeps } from "./deps.js";
import type { DeliveryEndpoint, OutgoingWebhook, StoredDelivery } from "./port.js";

/**
 * The request of one attempt, signed at `at` with every secret that still signs then. The
 * delivery id is the `webhook-id` of every attempt, so a receiver can drop duplicates.
 */
export function signedWebhook(deps: Pick<WebhookDeliveryDeps, "sign">, delivery: StoredDelivery, endpoint: DeliveryEndpoint, at: Date): OutgoingWebhook {
  const body = JSON.stringify(delivery.payload);
  const signature = deps.sign(signingSecrets(endpoint, at), delivery.id, at, body);
  return { url: endpoint.url, headers: { "content-type": "application/json", "user-agent": "files-and-fields-webhooks/1", ...signature }, body };
}
