import type { MikroORM } from "@mikro-orm/postgresql";
import { NativeConnection, Worker, type WorkerOptions } from "@temporalio/worker";
import { v7 as uuidv7 } from "uuid";
import type { Config } from "../config/config.js";
import type { Logger } from "../logger.js";
import { logScheduleOutcome } from "./schedule-outcome-log.js";
import { WebhookOutboxStore } from "../adapters/postgres/webhook-outbox-store.js";
import { pollerOptions } from "../adapters/temporal/worker-pollers.js";
import { WebhookDeliveryClient } from "../adapters/temporal/webhook-delivery-client.js";
import { RETIRED_DISPATCH_SCHEDULE_ID, WebhookDispatcherClient } from "../adapters/temporal/webhook-dispatcher-client.js";
import { retireSchedule } from "../adapters/temporal/retired-schedule.js";
import { DispatchListener } from "../adapters/postgres/dispatch-listener.js";
import { createWebhookSender } from "../adapters/webhooks/http-sender.js";
import { SecretCipher } from "../adapters/webhooks/secret-cipher.js";
import { signatureHeaders } from "../adapters/webhooks/webhook-signing.js";
import { storedObjectJson } from "../rpc/stored-object-json.js";
import { createWebhookActivities } from "../../workflows/activities/webhook-activities.js";
import type { WebhookActivities } from "../../workflows/activities/webhook-types.js";

/** What the webhook worker shares with the main one: the workflow bundle and the tracing hooks. */
export type SharedWorkerOptions = Pick<WorkerOptions, "workflowBundle" | "interceptors" | "sinks">;

/**
 * The worker's webhook part: the dispatcher's wake-ups (in the worker that takes part in the
 * schedules) and a Temporal worker of its own on the webhook task queue, with its own slots, so
 * deliveries to slow or hanging endpoints never hold a slot a scan needs. `activities` are also
 * registered on the main queue, for delivery workflows started there before deliveries had their
 * own queue.
 */
export async function createWebhookWorker(
  config: Config,
  orm: MikroORM,
  shared: SharedWorkerOptions,
  logger: Logger,
): Promise<{ worker: Worker; activities: WebhookActivities; close(): Promise<void> }> {
  const { address, namespace } = config.temporal;
  const settings = config.webhooks;
  const wakeups = config.worker.schedules ? await startDispatchWakeups(config, logger) : undefined;
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
      await wakeups?.stop();
      await Promise.allSettled([deliveries.close(), connection.close()]);
    },
  };
}

/**
 * Deletes the former dispatch schedule when this deployment owns it, then wakes the deployment's
 * dispatcher workflow on every notification of the database (src/adapters/postgres/dispatch-listener.ts).
 */
async function startDispatchWakeups(config: Config, logger: Logger): Promise<{ stop(): Promise<void> }> {
  const { address, namespace } = config.temporal;
  const owner = config.temporal.taskQueue;
  const retired = await retireSchedule(address, namespace, RETIRED_DISPATCH_SCHEDULE_ID, { owner, taskQueue: config.webhooks.taskQueue });
  if (retired.decision === "leave") logScheduleOutcome(logger, RETIRED_DISPATCH_SCHEDULE_ID, owner, { decision: "leave", stored: retired.stored });
  if (retired.decision === "deleted") logger.info({ scheduleId: RETIRED_DISPATCH_SCHEDULE_ID, owner }, "schedule deleted: webhook dispatch is woken by notifications");
  const dispatcher = await WebhookDispatcherClient.connect(address, namespace, owner, config.webhooks.taskQueue);
  const listener = DispatchListener.start({
    databaseUrl: config.databaseUrl,
    wake: () => dispatcher.wake(),
    catchUpIntervalMs: config.webhooks.dispatchCatchUpSeconds * 1000,
    backoff: { initialMs: 250, maxMs: 30_000 },
    logger,
  });
  return {
    async stop() {
      await listener.stop();
      await dispatcher.close();
    },
  };
}
