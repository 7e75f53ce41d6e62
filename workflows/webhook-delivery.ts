import { ActivityFailure, proxyActivities } from "@temporalio/workflow";
import type { WebhookActivities, WebhookDeliveryInput, WebhookDeliveryResult } from "./activities/webhook-types.js";

const HOUR_SECONDS = 3600;

/**
 * One delivery of one event to one endpoint: attempts with exponential backoff (doubling, at
 * most an hour apart) within a budget of hours. Every attempt signs anew with the same
 * `webhook-id` (the delivery id), so a receiver can drop duplicates. Once the budget is spent the
 * delivery is FAILED.
 */
export async function webhookDelivery(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const ref = { tenantId: input.tenantId, deliveryId: input.deliveryId };
  const { deliverWebhook } = proxyActivities<WebhookActivities>({
    startToCloseTimeout: `${input.retry.attemptSeconds}s`,
    scheduleToCloseTimeout: `${input.retry.totalHours}h`,
    retry: {
      initialInterval: `${input.retry.initialSeconds}s`,
      backoffCoefficient: 2,
      maximumInterval: `${Math.max(HOUR_SECONDS, input.retry.initialSeconds)}s`,
    },
  });
  const { giveUpWebhook } = proxyActivities<WebhookActivities>({
    startToCloseTimeout: "1 minute",
    retry: { initialInterval: "1s", maximumInterval: "1 minute" },
  });
  try {
    return await deliverWebhook(ref);
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    await giveUpWebhook(ref);
    return { status: "FAILED" };
  }
}
