import { proxyActivities } from "@temporalio/workflow";
import type { WebhookActivities, WebhookDispatchInput, WebhookDispatchResult } from "./activities/webhook-types.js";

/**
 * One dispatch round: turns committed audit entries into deliveries (the transactional outbox),
 * then starts a delivery workflow for every delivery that has none, each step in batches up to
 * `maxBatches`. Both steps are idempotent, so a crash anywhere only delays events, never loses
 * them. `complete` is false when a step stopped at `maxBatches` with work left.
 */
export async function dispatchRound(input: WebhookDispatchInput): Promise<WebhookDispatchResult & { complete: boolean }> {
  // 15 s: a worker killed in the middle of an activity holds the dispatcher no longer than that.
  // Retried until it succeeds: the work is there, and nothing else would wake the dispatcher for it.
  const acts = proxyActivities<WebhookActivities>({
    startToCloseTimeout: "15 seconds",
    retry: { initialInterval: "1s", maximumInterval: "30s" },
  });
  const result = { entries: 0, deliveries: 0, started: 0, complete: false };
  let fannedAll = false;
  for (let batch = 0; batch < input.maxBatches && !fannedAll; batch++) {
    const fanned = await acts.fanOutWebhookEvents(input.batchSize);
    result.entries += fanned.claimed;
    result.deliveries += fanned.deliveries;
    fannedAll = fanned.claimed < input.batchSize;
  }
  let startedAll = false;
  for (let batch = 0; batch < input.maxBatches && !startedAll; batch++) {
    const started = await acts.startWebhookDeliveries(input.batchSize);
    result.started += started;
    startedAll = started < input.batchSize;
  }
  result.complete = fannedAll && startedAll;
  return result;
}

/**
 * The run the former `webhook-dispatch` Temporal Schedule started every few seconds; kept so that a
 * run started before the upgrade (the schedule is deleted at the worker's start) still completes.
 */
export async function webhookDispatch(input: WebhookDispatchInput): Promise<WebhookDispatchResult> {
  const { complete: _complete, ...result } = await dispatchRound(input);
  return result;
}
