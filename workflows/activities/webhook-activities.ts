import { ApplicationFailure } from "@temporalio/common";
import type { NewDelivery, OutboxEntry, Subscription, WebhookOutbox, WebhookSender } from "../../src/app/webhooks/port.js";
import { NO_OBJECT_ID } from "../../src/domain/audit/chain/checkpoint-entry.js";
import type { StoredObjectView } from "../../src/domain/files/stored-object.js";
import { goneReason, responseOutcome, webhookPayload, type DeliveryRef, type DeliveryStatus } from "../../src/domain/webhooks/delivery.js";
import { eventTypeOf, subscribes } from "../../src/domain/webhooks/event-types.js";
import { fairClaim } from "../../src/domain/webhooks/fair-share.js";
import { signingSecrets } from "../../src/domain/webhooks/signing-secrets.js";
import type { WebhookActivities } from "./webhook-types.js";

export interface WebhookActivityDeps {
  outbox: WebhookOutbox;
  send: WebhookSender;
  /** The Standard Webhooks headers of one attempt, one signature per secret. */
  sign(secrets: readonly string[], msgId: string, at: Date, body: string): Record<string, string>;
  /** Started delivery workflows not yet ended, per endpoint; the dispatcher starts no more. */
  maxInFlightPerEndpoint: number;
  /** The same per tenant: its fair share of the webhook worker (src/domain/webhooks/fair-share.ts). */
  maxInFlightPerTenant: number;
  /** The stored object exactly as the JSON API shows it. */
  objectJson(object: StoredObjectView): unknown;
  /** Starts the delivery's workflow; a workflow that already exists counts as started. */
  startDelivery(ref: DeliveryRef): Promise<void>;
  newId(): string;
  now(): Date;
}

/** One delivery per entry and subscribed endpoint of its tenant. */
export function planDeliveries(deps: Pick<WebhookActivityDeps, "objectJson" | "newId">, entries: OutboxEntry[], subscriptions: Subscription[]): NewDelivery[] {
  const deliveries: NewDelivery[] = [];
  for (const entry of entries) {
    const type = eventTypeOf(entry.action);
    if (!type) continue;
    const targets = subscriptions.filter((s) => s.tenantId === entry.tenantId && subscribes(s.eventTypes, type));
    if (targets.length === 0) continue;
    const payload = webhookPayload(entry, type, eventObject(deps, entry));
    for (const target of targets) {
      deliveries.push({ id: deps.newId(), tenantId: entry.tenantId, endpointId: target.endpointId, auditEntryId: entry.id, eventType: type, payload });
    }
  }
  return deliveries;
}

/**
 * The event's object: as the JSON API shows it, `{id}` alone once its row is gone, or null for an
 * entry that concerns no object (a signed checkpoint's, which carries the checkpoint in `details`).
 */
function eventObject(deps: Pick<WebhookActivityDeps, "objectJson">, entry: OutboxEntry): unknown {
  if (entry.objectId === NO_OBJECT_ID) return null;
  return entry.object ? deps.objectJson(entry.object) : { id: entry.objectId };
}

const retryLater = (message: string) => ApplicationFailure.retryable(message, "WEBHOOK_ATTEMPT_FAILED");

export function createWebhookActivities(deps: WebhookActivityDeps): WebhookActivities {
  return {
    async fanOutWebhookEvents(batchSize) {
      return deps.outbox.fanOut(batchSize, deps.now(), (entries, subscriptions) => planDeliveries(deps, entries, subscriptions));
    },

    async startWebhookDeliveries(batchSize) {
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
    },

    async deliverWebhook(ref) {
      const delivery = await deps.outbox.findDelivery(ref.tenantId, ref.deliveryId);
      if (!delivery) return { status: "MISSING" };
      // Ended already: a retry after the outcome was recorded, or a second workflow.
      if (delivery.status !== "PENDING") return { status: delivery.status as DeliveryStatus };
      const endpoint = await deps.outbox.findEndpoint(ref.tenantId, delivery.endpointId);
      if (!endpoint?.enabled) {
        const reason = endpoint ? `endpoint disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}` : "endpoint deleted";
        await deps.outbox.finish(ref, "ENDPOINT_DISABLED", reason);
        return { status: "ENDPOINT_DISABLED" };
      }
      const at = deps.now();
      const body = JSON.stringify(delivery.payload);
      const headers = { "content-type": "application/json", "user-agent": "files-and-fields-webhooks/1", ...deps.sign(signingSecrets(endpoint, at), delivery.id, at, body) };
      const sent = await deps.send({ url: endpoint.url, headers, body });
      if (sent.kind === "refused") {
        await deps.outbox.finish(ref, "FAILED", sent.reason);
        return { status: "FAILED" };
      }
      if (sent.kind === "failed") {
        await deps.outbox.recordFailedAttempt(ref, null, sent.error, at);
        throw retryLater(sent.error);
      }
      const outcome = responseOutcome(sent.status);
      if (outcome === "delivered") {
        await deps.outbox.markDelivered(ref, sent.status, at);
        return { status: "DELIVERED" };
      }
      if (outcome === "gone") {
        await deps.outbox.markEndpointGone(ref, endpoint.id, goneReason(at), at);
        return { status: "ENDPOINT_DISABLED" };
      }
      await deps.outbox.recordFailedAttempt(ref, sent.status, `endpoint answered HTTP ${sent.status}`, at);
      throw retryLater(`endpoint answered HTTP ${sent.status}`);
    },

    async giveUpWebhook(ref) {
      await deps.outbox.finish(ref, "FAILED");
    },
  };
}
