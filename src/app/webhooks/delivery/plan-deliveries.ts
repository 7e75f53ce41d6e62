import { NO_OBJECT_ID } from "../../../domain/audit/chain/checkpoint-entry.js";
import { webhookPayload } from "../../../domain/webhooks/delivery.js";
import { eventTypeOf, subscribes } from "../../../domain/webhooks/event-types.js";
import type { WebhookDeliveryDeps } from "./deps.js";
import type { NewDelivery, OutboxEntry, Subscription } from "./port.js";

type PlanDeps = Pick<WebhookDeliveryDeps, "objectJson" | "newId">;

/** One delivery per entry and subscribed endpoint of its tenant. */
export function planDeliveries(deps: PlanDeps, entries: OutboxEntry[], subscriptions: Subscription[]): NewDelivery[] {
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
function eventObject(deps: Pick<PlanDeps, "objectJson">, entry: OutboxEntry): unknown {
  if (entry.objectId === NO_OBJECT_ID) return null;
  return entry.object ? deps.objectJson(entry.object) : { id: entry.objectId };
}
