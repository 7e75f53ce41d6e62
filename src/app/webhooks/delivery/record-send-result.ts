import { goneReason, responseOutcome, type DeliveryRef } from "../../../domain/webhooks/delivery.js";
import type { AttemptOutcome } from "./attempt-outcome.js";
import type { SendResult, WebhookOutbox } from "./port.js";

/** Records what the sender reported for the attempt made at `at`, and what it means for the delivery. */
export async function recordSendResult(outbox: WebhookOutbox, ref: DeliveryRef, endpointId: string, sent: SendResult, at: Date): Promise<AttemptOutcome> {
  if (sent.kind === "refused") {
    await outbox.finish(ref, "FAILED", sent.reason);
    return { status: "FAILED" };
  }
  if (sent.kind === "failed") {
    await outbox.recordFailedAttempt(ref, null, sent.error, at);
    return { retry: sent.error };
  }
  const outcome = responseOutcome(sent.status);
  if (outcome === "delivered") {
    await outbox.markDelivered(ref, sent.status, at);
    return { status: "DELIVERED" };
  }
  if (outcome === "gone") {
    await outbox.markEndpointGone(ref, endpointId, goneReason(at), at);
    return { status: "ENDPOINT_DISABLED" };
  }
  const error = `endpoint answered HTTP ${sent.status}`;
  await outbox.recordFailedAttempt(ref, sent.status, error, at);
  return { retry: error };
}
