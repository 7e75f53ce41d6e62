import { AppError } from "../errors.js";
import { WEBHOOK_EVENT_TYPES, isWebhookEventType } from "./event-types.js";

/** A tenant's webhook endpoint as the service shows it; the secret never leaves the store. */
export interface WebhookEndpointView {
  id: string;
  tenantId: string;
  url: string;
  /** Empty: every event. */
  eventTypes: string[];
  enabled: boolean;
  disabledReason?: string;
  /** After a rotation: until then deliveries carry a signature with the previous secret too. */
  previousSecretExpiresAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** Unknown names are refused rather than stored: a typo would otherwise silently receive nothing. */
export function checkEventTypes(eventTypes: readonly string[], field = "eventTypes"): void {
  const unknown = eventTypes.map((name, index) => ({ name, index })).filter((e) => !isWebhookEventType(e.name));
  if (unknown.length === 0) return;
  const violations = unknown.map((e) => ({ field: `${field}[${e.index}]`, description: `unknown event type "${e.name}"` }));
  throw new AppError("UNKNOWN_EVENT_TYPE", `unknown event type ${unknown.map((e) => `"${e.name}"`).join(", ")}; expected any of ${WEBHOOK_EVENT_TYPES.join(", ")}`, {
    violations,
  });
}
