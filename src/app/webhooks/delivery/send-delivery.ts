import type { DeliveryRef, DeliveryStatus } from "../../../domain/webhooks/delivery.js";
import type { AttemptOutcome } from "./attempt-outcome.js";
import type { WebhookDeliveryDeps } from "./deps.js";
import type { DeliveryEndpoint } from "./port.js";
import { recordSendResult } from "./record-send-result.js";
import { signedWebhook } from "./signed-webhook.js";

type SendDeps = Pick<WebhookDeliveryDeps, "outbox" | "send" | "sign" | "now">;

/**
 * One attempt of one delivery: signed anew, POSTed, its outcome recorded. A delivery that ended
 * already (a retry after the outcome was recorded, or a second workflow) is not sent again.
 */
export async function sendDelivery(deps: SendDeps, ref: DeliveryRef): Promise<AttemptOutcome> {
  const delivery = await deps.outbox.findDelivery(ref.tenantId, ref.deliveryId);
  if (!delivery) return { status: "MISSING" };
  if (delivery.status !== "PENDING") return { status: delivery.status as DeliveryStatus };
  const endpoint = await deps.outbox.findEndpoint(ref.tenantId, delivery.endpointId);
  if (!endpoint?.enabled) {
    await deps.outbox.finish(ref, "ENDPOINT_DISABLED", notSendingTo(endpoint));
    return { status: "ENDPOINT_DISABLED" };
  }
  const at = deps.now();
  const sent = await deps.send(signedWebhook(deps, delivery, endpoint, at));
  return recordSendResult(deps.outbox, ref, endpoint.id, sent, at);
}

/** Why a delivery to a disabled or deleted endpoint ends without a request. */
function notSendingTo(endpoint: DeliveryEndpoint | undefined): string {
  if (!endpoint) return "endpoint deleted";
  return `endpoint disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}`;
}
