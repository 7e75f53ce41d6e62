import type { MikroORM } from "@mikro-orm/postgresql";
import { NativeConnection, Worker, type WorkerOptions } from "@temporalio/worker";
import { v7 as uuidv7 } from "uuid";
import type { Config } from "../config/config.js";
import type { Logger } from "../logger.js";
import { logScheduleOutcome } from "./schedule-outcome-log.js";
import { WebhookOutboxStore } from "../adapters/postgres/webhook-outbox-store.js";
import { pollerOptions } from "../adapters/temporal/worker-pollers.js";
import { ensureWebhookDispatchSchedule, WEBHOOK_DISPATCH_SCHEDULE_ID, WebhookDeliveryClient } from "../adapters/temporal/webhook-delivery-client.js";
import { createWebhookSender } from "../adapters/webhooks/http-sender.js";
import { SecretCipher } from "../adapters/webhooks/secret-cipher.js";
import { signatureHeaders } from "../adapters/webhooks/webhook-signing.js";
import { storedObjectJson } from "../rpc/stored-object-json.js";
import { createWebhookActivities } from "../../workflows/activities/webhook-activities.js";
import type { WebhookActivities } from "../../workflows/activities/webhook-types.js";

/** What the webhook worker shares with the main one: the workflow bundle and the tracing hooks. */
export type SharedWorkerOptions = Pick<WorkerOptions, "workflowBundle" | "interceptors" | "sinks">;

/**
 * The worker's webhook part: the dispatcher's schedule and a Temporal worker of its own on the
 * webhook task queue, with its own slots, so deliveries to slow or hanging endpoints never hold a
 * slot a scan needs. `activities` are also registered on the main queue, for delivery workflows
 * started there before deliveries had their own queue.
 */
export async function createWebhookWorker(
  config: Config,
  orm: MikroORM,
  shared: SharedWorkerOptions,
  logger: Logger,
): Promise<{ worker: Worker; activities: WebhookActivities; close(): Promise<void> }> {
  const { address, namespace } = config.temporal;
  const settings = config.webhooks;
  if (config.worker.schedules) {
    const owner = config.temporal.taskQueue;
    const outcome = await ensureWebhookDispatchSchedule(address, namespace, settings.taskQueue, settings.dispatchIntervalSeconds, { batchSize: 200, maxBatches: 50 }, owner);
    logScheduleOutcome(logger, WEBHOOK_DISPATCH_SCHEDULE_ID, owner, outcome);
  }
  const deliveries = await WebhookDeliveryClient.connect(address, namespace, settings.taskQueue, {
    initialSeconds: settings.retryInitialSeconds,
    totalHours: settings.retryTotalHours,
    attemptSeconds: settings.requestTimeoutSeconds + 30,
  });
  const activities = createWebhookActivities({
    outbox: new WebhookOutboxStore(orm, new SecretCipher(settings.secretKeys)),
    send: createWebhookSender({ allowPrivate: settings.allowPrivateUrls, timeoutMs: settings.requestTimeoutSeconds * 1000 }),
    sign: signatureHeaders,
    objectJson: storedObjectJson,
    startDelivery: (ref) => deliveries.start(ref),
    maxInFlightPerEndpoint: settings.maxInFlightPerEndpoint,
    maxInFlightPerTenant: settings.maxInFlightPerTenant,
    newId: () => uuidv7(),
    now: () => new Date(),
  });
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue: settings.taskQueue,
    activities,
    ...shared,
    shutdownGraceTime: `${config.shutdownGraceSeconds}s`,
    maxConcurrentActivityTaskExecutions: settings.maxConcurrentActivities,
    maxConcurrentWorkflowTaskExecutions: settings.maxConcurrentWorkflowTasks,
    maxConcurrentLocalActivityExecutions: settings.maxConcurrentWorkflowTasks,
    ...pollerOptions(settings),
  });
  // As the main worker does: the pollers as the SDK compiled them, the ones it hands sdk-core
  // (not "... started": the supervisors wait for the main worker's "worker started" line).
  const { workflowTaskPollerBehavior, activityTaskPollerBehavior } = worker.options;
  logger.info({ taskQueue: settings.taskQueue, workflowTaskPollerBehavior, activityTaskPollerBehavior }, "webhook worker created");
  return {
    worker,
    activities,
    async close() {
      await Promise.allSettled([deliveries.close(), connection.close()]);
    },
  };
}
