import { proxyActivities } from "@temporalio/workflow";
import type { WebhookActivities, WebhookDispatchInput, WebhookDispatchResult } from "./activities/webhook-types.js";

/**
 * Run by a Temporal Schedule every few seconds: turns committed audit entries into deliveries
 * (the transactional outbox), then starts a delivery workflow for every delivery that has none.
 * Both steps are idempotent, so a crash anywhere only delays events, never loses them.
 */
export async function webhookDispatch(input: WebhookDispatchInput): Promise<WebhookDispatchResult> {
  const acts = proxyActivities<WebhookActivities>({
    startToCloseTimeout: "1 minute",
    retry: { initialInterval: "1s", maximumInterval: "10s", maximumAttempts: 3 },
  });
  const result: WebhookDispatchResult = { entries: 0, deliveries: 0, started: 0 };
  for (let batch = 0; batch < input.maxBatches; batch++) {
    const fanned = await acts.fanOutWebhookEvents(input.batchSize);
    result.entries += fanned.claimed;
    result.deliveries += fanned.deliveries;
    if (fanned.claimed < input.batchSize) break;
  }
  for (let batch = 0; batch < input.maxBatches; batch++) {
    const started = await acts.startWebhookDeliveries(input.batchSize);
    result.started += started;
    if (started < input.batchSize) break;
  }
  return result;
}
