/**
 * What the webhook use cases need from outside: the endpoint store (endpoint CRUD), and the outbox
 * and the HTTP sender that delivery works through (workflows/activities/webhook-activities.ts).
 * src/adapters/postgres and src/adapters/webhooks implement them; src/main wires them.
 */
import type { StoredObjectView } from "../../domain/files/stored-object.js";
import type { Cursor } from "../../domain/pagination.js";
import type { AuditEvent, DeliveryRef, DeliveryStatus } from "../../domain/webhooks/delivery.js";
import type { WebhookEndpointView } from "../../domain/webhooks/endpoint.js";
import type { DeliveryCandidate, InFlight } from "../../domain/webhooks/fair-share.js";
import type { EndpointSecrets } from "../../domain/webhooks/signing-secrets.js";

export interface NewWebhookEndpoint {
  id: string;
  tenantId: string;
  url: string;
  eventTypes: string[];
  secret: string;
  createdAt: Date;
}

/** Only what a caller changes; `disabledReason` goes with `enabled`. */
export interface WebhookEndpointChanges {
  url?: string;
  eventTypes?: string[];
  enabled?: boolean;
  disabledReason?: string | null;
}

/** A new secret for an endpoint; the one it replaces keeps signing until `previousSecretExpiresAt`. */
export interface SecretRotation {
  tenantId: string;
  id: string;
  secret: string;
  previousSecretExpiresAt: Date;
  at: Date;
  /** The audit row written with the change. */
  audit: { id: string; actorId: string; requestId?: string };
}

export interface WebhookEndpointStorePort {
  /** Undefined, and nothing written, when the tenant has `maxPerTenant` endpoints already. */
  insert(endpoint: NewWebhookEndpoint, maxPerTenant: number): Promise<WebhookEndpointView | undefined>;
  /** Stores the new secret (encrypted) and audits the rotation in one transaction; undefined when not found. */
  rotateSecret(rotation: SecretRotation): Promise<WebhookEndpointView | undefined>;
  find(tenantId: string, id: string): Promise<WebhookEndpointView | undefined>;
  list(tenantId: string, after: Cursor | undefined, limit: number): Promise<WebhookEndpointView[]>;
  update(tenantId: string, id: string, changes: WebhookEndpointChanges, at: Date): Promise<WebhookEndpointView | undefined>;
  delete(tenantId: string, id: string): Promise<boolean>;
}

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
