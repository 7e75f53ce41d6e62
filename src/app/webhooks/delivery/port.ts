/**
 * What webhook delivery (the use cases in this folder, run as activities of the dispatch and
 * delivery workflows) needs from outside: the outbox in PostgreSQL, the HTTP sender and the
 * Standard Webhooks signer. src/adapters/postgres/webhook-outbox-store.ts and src/adapters/webhooks
 * implement them; src/main/webhook-worker.ts wires them.
 */
import type { StoredObjectView } from "../../../domain/files/stored-object.js";
import type { AuditEvent, DeliveryRef, DeliveryStatus } from "../../../domain/webhooks/delivery.js";
import type { DeliveryCandidate, InFlight } from "../../../domain/webhooks/fair-share.js";
import type { EndpointSecrets } from "../../../domain/webhooks/signing-secrets.js";

/** An undispatched audit entry with its object: as committed, or as it is now, or gone. */
export interface OutboxEntry extends AuditEvent {
  tenantId: string;
  objectId: string;
  object?: StoredObjectView;
}

export interface Subscription {
  tenantId: string;
  endpointId: string;
  eventTypes: string[];
}

export interface NewDelivery {
  id: string;
  tenantId: string;
  endpointId: string;
  auditEntryId: string;
  eventType: string;
  payload: unknown;
}

export type FanOutPlan = (entries: OutboxEntry[], subscriptions: Subscription[]) => NewDelivery[];

/** A delivery as an attempt reads it. */
export interface StoredDelivery {
  id: string;
  endpointId: string;
  status: string;
  payload: unknown;
}

/** An endpoint as a delivery needs it. */
export interface DeliveryEndpoint extends EndpointSecrets {
  id: string;
  url: string;
  enabled: boolean;
  disabledReason?: string;
}

/**
 * The webhook outbox: audit entries become deliveries, deliveries become workflows, and each
 * delivery's attempts are recorded.
 */
export interface WebhookOutbox {
  /**
   * Claims up to `limit` undispatched entries, stores the deliveries `plan` makes of them and
   * marks the entries dispatched, all in one transaction.
   */
  fanOut(limit: number, at: Date, plan: FanOutPlan): Promise<{ claimed: number; deliveries: number }>;
  /** Deliveries whose workflow is not known to have started, with what is in flight per tenant and endpoint. */
  unstarted(limits: { perEndpoint: number; perTenant: number }): Promise<{ candidates: DeliveryCandidate[]; inFlight: InFlight }>;
  markStarted(ids: string[], at: Date): Promise<void>;
  findDelivery(tenantId: string, id: string): Promise<StoredDelivery | undefined>;
  /** With its secrets decrypted: for signing only, never for an API answer. */
  findEndpoint(tenantId: string, id: string): Promise<DeliveryEndpoint | undefined>;
  /** One attempt that did not succeed; the delivery stays PENDING for the next one. */
  recordFailedAttempt(ref: DeliveryRef, statusCode: number | null, error: string, at: Date): Promise<void>;
  markDelivered(ref: DeliveryRef, statusCode: number, at: Date): Promise<void>;
  /** The endpoint answered 410: it is disabled, and this delivery ends with it. */
  markEndpointGone(ref: DeliveryRef, endpointId: string, reason: string, at: Date): Promise<void>;
  /** Ends a delivery without an attempt (no `error`: the last attempt's stays). */
  finish(ref: DeliveryRef, status: Exclude<DeliveryStatus, "PENDING" | "DELIVERED">, error?: string): Promise<void>;
}

export interface OutgoingWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** `refused`: the URL may not be called at all; `failed`: no answer this time (worth a retry). */
export type SendResult = { kind: "answered"; status: number } | { kind: "refused"; reason: string } | { kind: "failed"; error: string };

/** POSTs one webhook (src/adapters/webhooks/http-sender.ts). */
export type WebhookSender = (webhook: OutgoingWebhook) => Promise<SendResult>;

/** The Standard Webhooks headers of one attempt, one signature per secret (src/adapters/webhooks/webhook-signing.ts). */
export type WebhookSigner = (secrets: readonly string[], msgId: string, at: Date, body: string) => Record<string, string>;

/** Starts a delivery's workflow; a workflow that already exists counts as started (src/adapters/temporal). */
export type DeliveryStarter = (ref: DeliveryRef) => Promise<void>;
