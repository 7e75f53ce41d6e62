import type { MikroORM } from "@mikro-orm/postgresql";
import { v7 as uuidv7 } from "uuid";
import type { Config } from "../config.js";
import { WebhookOutboxStore } from "../adapters/postgres/webhook-outbox-store.js";
import { ensureWebhookDispatchSchedule, WebhookDeliveryClient } from "../adapters/temporal/webhook-delivery-client.js";
import { createWebhookSender } from "../adapters/webhooks/http-sender.js";
import { signatureHeaders } from "../adapters/webhooks/webhook-signing.js";
import { storedObjectJson } from "../rpc/stored-object-json.js";
import { createWebhookActivities } from "../../workflows/activities/webhook-activities.js";
import type { WebhookActivities } from "../../workflows/activities/webhook-types.js";

/** The worker's webhook part: the dispatcher's schedule and the activities with their adapters. */
export async function createWebhookWorker(config: Config, orm: MikroORM): Promise<{ activities: WebhookActivities; close(): Promise<void> }> {
  const { address, namespace, taskQueue } = config.temporal;
  const settings = config.webhooks;
  if (config.worker.schedules) await ensureWebhookDispatchSchedule(address, namespace, taskQueue, settings.dispatchIntervalSeconds, { batchSize: 200, maxBatches: 50 });
  const deliveries = await WebhookDeliveryClient.connect(address, namespace, taskQueue, {
    initialSeconds: settings.retryInitialSeconds,
    totalHours: settings.retryTotalHours,
    attemptSeconds: settings.requestTimeoutSeconds + 30,
  });
  const activities = createWebhookActivities({
    outbox: new WebhookOutboxStore(orm),
    send: createWebhookSender({ allowPrivate: settings.allowPrivateUrls, timeoutMs: settings.requestTimeoutSeconds * 1000 }),
    sign: signatureHeaders,
    objectJson: storedObjectJson,
    startDelivery: (ref) => deliveries.start(ref),
    newId: () => uuidv7(),
    now: () => new Date(),
  });
  return { activities, close: () => deliveries.close() };
}
