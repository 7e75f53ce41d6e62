import { fairClaim } from "../../../domain/webhooks/fair-share.js";
import type { WebhookDeliveryDeps } from "./deps.js";

type StartDeps = Pick<WebhookDeliveryDeps, "outbox" | "startDelivery" | "maxInFlightPerEndpoint" | "maxInFlightPerTenant" | "now">;

/**
 * Starts the workflows of up to `batchSize` deliveries that have none yet, each tenant and
 * endpoint within its share (`fairClaim`); answers how many it chose. Those started before a
 * failure are marked all the same, so a retry does not count them twice.
 */
export async function startDeliveries(deps: StartDeps, batchSize: number): Promise<number> {
  const limits = { batch: batchSize, perEndpoint: deps.maxInFlightPerEndpoint, perTenant: deps.maxInFlightPerTenant };
  const { candidates, inFlight } = await deps.outbox.unstarted(limits);
  const pending = fairClaim(candidates, inFlight, limits);
  const started: string[] = [];
  try {
    for (const ref of pending) {
      await deps.startDelivery(ref);
      started.push(ref.deliveryId);
    }
  } finally {
    await deps.outbox.markStarted(started, deps.now());
  }
  return pending.length;
}
