/** One delivery of one event to one endpoint. */
export interface DeliveryRef {
  tenantId: string;
  deliveryId: string;
}

/** Where a delivery stands; PENDING until it succeeded, was given up, or its endpoint went away. */
export type DeliveryStatus = "PENDING" | "DELIVERED" | "FAILED" | "ENDPOINT_DISABLED";

/** What an answer of the receiver means (Standard Webhooks: 2xx accepts, 410 unsubscribes). */
export function responseOutcome(status: number): "delivered" | "gone" | "retry" {
  if (status >= 200 && status < 300) return "delivered";
  if (status === 410) return "gone";
  return "retry";
}

export interface AuditEvent {
  id: string;
  action: string;
  actorId: string;
  requestId?: string | null;
  result: string;
  details?: Record<string, unknown> | null;
  occurredAt: Date;
}

/** The event body (Standard Webhooks: `type`, `timestamp`, `data`); `object` is the stored object. */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: {
    object: unknown;
    auditEntryId: string;
    actorId: string;
    requestId?: string;
    result: string;
    details?: Record<string, unknown>;
  };
}

export function webhookPayload(event: AuditEvent, type: string, object: unknown): WebhookPayload {
  return {
    type,
    timestamp: new Date(event.occurredAt).toISOString(),
    data: {
      object,
      auditEntryId: event.id,
      actorId: event.actorId,
      ...(event.requestId ? { requestId: event.requestId } : {}),
      result: event.result,
      ...(event.details && Object.keys(event.details).length > 0 ? { details: event.details } : {}),
    },
  };
}

/** A readable reason for an endpoint turned off by its own 410. */
export function goneReason(at: Date): string {
  return `the endpoint answered 410 Gone at ${at.toISOString()}`;
}
