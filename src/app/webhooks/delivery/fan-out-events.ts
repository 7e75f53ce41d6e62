import type { WebhookDeliveryDeps } from "./deps.js";
import { planDeliveries } from "./plan-deliveries.js";

/**
 * Turns up to `batchSize` committed audit entries into deliveries, one transaction per batch (the
 * transactional outbox); answers how many entries it claimed and how many deliveries it stored.
 */
export function fanOutEvents(deps: WebhookDeliveryDeps, batchSize: number): Promise<{ claimed: number; deliveries: number }> {
  return deps.outbox.fanOut(batchSize, deps.now(), (entries, subscriptions) => planDeliveries(deps, entries, subscriptions));
}
