import { ApplicationFailure } from "@temporalio/common";
import type { WebhookDeliveryDeps } from "../../src/app/webhooks/delivery/deps.js";
import { fanOutEvents } from "../../src/app/webhooks/delivery/fan-out-events.js";
import { giveUpDelivery } from "../../src/app/webhooks/delivery/give-up-delivery.js";
import { sendDelivery } from "../../src/app/webhooks/delivery/send-delivery.js";
import { startDeliveries } from "../../src/app/webhooks/delivery/start-deliveries.js";
import type { WebhookActivities } from "./webhook-types.js";

/** The webhook activities: thin wrappers over the use cases in src/app/webhooks/delivery. */
export function createWebhookActivities(deps: WebhookDeliveryDeps): WebhookActivities {
  return {
    fanOutWebhookEvents: (batchSize) => fanOutEvents(deps, batchSize),
    startWebhookDeliveries: (batchSize) => startDeliveries(deps, batchSize),
    async deliverWebhook(ref) {
      const outcome = await sendDelivery(deps, ref);
      // Temporal retries the attempt with the workflow's backoff until the budget is spent.
      if ("retry" in outcome) throw ApplicationFailure.retryable(outcome.retry, "WEBHOOK_ATTEMPT_FAILED");
      return outcome;
    },
    giveUpWebhook: (ref) => giveUpDelivery(deps, ref),
  };
}
