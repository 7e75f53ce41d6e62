import type { StoredObjectView } from "../../../domain/files/stored-object.js";
import type { DeliveryStarter, WebhookOutbox, WebhookSender, WebhookSigner } from "./port.js";

/** What the delivery use cases take; src/main/webhook-worker.ts builds it. */
export interface WebhookDeliveryDeps {
  outbox: WebhookOutbox;
  send: WebhookSender;
  sign: WebhookSigner;
  startDelivery: DeliveryStarter;
  /** Started delivery workflows not yet ended, per endpoint; the dispatcher starts no more. */
  maxInFlightPerEndpoint: number;
  /** The same per tenant: its fair share of the webhook worker (src/domain/webhooks/fair-share.ts). */
  maxInFlightPerTenant: number;
  /** The stored object exactly as the JSON API shows it. */
  objectJson(object: StoredObjectView): unknown;
  newId(): string;
  now(): Date;
}
