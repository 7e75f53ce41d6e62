import type { DeliveryRef, DeliveryStatus } from "../../src/domain/webhooks/delivery.js";

/** Shapes shared by the webhook workflows and their activities; workflows import types only. */

export interface WebhookDispatchInput {
  batchSize: number;
  maxBatches: number;
}

export interface WebhookDispatchResult {
  entries: number;
  deliveries: number;
  started: number;
}

/** The long-lived dispatcher of one deployment (workflows/webhook-dispatcher.ts). */
export interface WebhookDispatcherInput extends WebhookDispatchInput {
  /** Rounds one run makes before it continues as new, keeping its history short. */
  maxRounds: number;
  /** A wake-up that arrived before the previous run continued as new: the new run starts with a round. */
  woken: boolean;
  /** Rounds made by the runs before this one (the `rounds` query counts from the first run on). */
  roundsBefore: number;
}

export interface WebhookRetry {
  initialSeconds: number;
  totalHours: number;
  /** Limit of one attempt (the request timeout and the bookkeeping around it). */
  attemptSeconds: number;
}

export interface WebhookDeliveryInput extends DeliveryRef {
  retry: WebhookRetry;
}

export interface WebhookDeliveryResult {
  status: DeliveryStatus | "MISSING";
}

export interface WebhookActivities {
  /** Audit entries to deliveries, one transaction per batch. */
  fanOutWebhookEvents(batchSize: number): Promise<{ claimed: number; deliveries: number }>;
  /** Starts the workflows of deliveries that have none yet; answers how many it looked at. */
  startWebhookDeliveries(batchSize: number): Promise<number>;
  /** One attempt: answers when the delivery ended, throws (retryable) when it should be tried again. */
  deliverWebhook(ref: DeliveryRef): Promise<WebhookDeliveryResult>;
  /** The retry budget is spent. */
  giveUpWebhook(ref: DeliveryRef): Promise<void>;
}

export const WEBHOOK_DELIVERY_WORKFLOW = "webhookDelivery";
export const WEBHOOK_DISPATCHER_WORKFLOW = "webhookDispatcher";
/** Signal: there may be new work (audit entries to fan out, deliveries to start). */
export const WEBHOOK_DISPATCHER_WAKE = "wake";
/** Query: rounds made so far, across continue-as-new. */
export const WEBHOOK_DISPATCHER_ROUNDS = "rounds";

/** One dispatcher per deployment, named by the deployment's main task queue. */
export function webhookDispatcherId(deployment: string): string {
  return `webhook-dispatcher-${deployment}`;
}

/** Derived from the delivery id, so a second start of the same delivery is refused by Temporal. */
export function webhookWorkflowId(deliveryId: string): string {
  return `webhook-${deliveryId}`;
}
