import type { DeliveryRef } from "../../../domain/webhooks/delivery.js";
import type { WebhookDeliveryDeps } from "./deps.js";

/** The retry budget is spent: the delivery is FAILED, keeping its last attempt's error. */
export async function giveUpDelivery(deps: Pick<WebhookDeliveryDeps, "outbox">, ref: DeliveryRef): Promise<void> {
  await deps.outbox.finish(ref, "FAILED");
}
