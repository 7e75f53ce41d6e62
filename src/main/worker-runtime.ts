import { DefaultLogger, type LogEntry, type LogLevel, NativeConnection, Runtime, Worker } from "@temporalio/worker";
import { type Config, scanDeadlineSeconds } from "../config.js";
import type { Logger } from "../logger.js";
import { openDatabase } from "../adapters/postgres/orm.js";
import { StoredObjectStore } from "../adapters/postgres/stored-object-store.js";
import { openS3ObjectStorage } from "../adapters/s3/s3-object-storage.js";
import { LifecycleClient } from "../adapters/temporal/lifecycle-client.js";
import { FaultInjector } from "../../workflows/activities/fault-injection.js";
import { createLifecycleActivities } from "../../workflows/activities/lifecycle-activities.js";
import { createSweepActivities } from "../../workflows/activities/sweep-activities.js";
import { ensureSweepSchedule } from "../adapters/temporal/sweep-schedule.js";
import { createWebhookWorker } from "./webhook-worker.js";
import { workflowBundlerOptions, workflowsPath } from "../adapters/temporal/workflow-bundle.js";
import { temporalClientInterceptors, temporalWorkerTracing } from "../observability/temporal-tracing.js";
import type { Tracing } from "../observability/tracing.js";

export interface RunningWorker {
  /** Resolves when the worker stopped. */
  done: Promise<void>;
  stop(): Promise<void>;
}

let runtimeInstalled = false;

/**
 * The SDK's own log (bundler output, state changes, failed activities) only from warnings up,
 * unless debugging, as JSON lines of our logger: an activity's carry its workflowId (and with
 * tracing its trace_id).
 */
function installRuntime(logger: Logger, level: string): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const toLogger = (entry: LogEntry) => {
    const { error, ...meta } = entry.meta ?? {};
    logger[entry.level.toLowerCase() as Lowercase<LogLevel>]({ ...meta, err: error }, entry.message);
  };
  Runtime.install({ logger: new DefaultLogger(level === "debug" ? "DEBUG" : "WARN", toLogger) });
}

/**
 * The Temporal worker: workflows bundled from workflows/, activities given their adapters.
 * `tracing`: the process's (its owner shuts it down), continued in workflows and activities.
 */
export async function startWorker(config: Config, logger: Logger, tracing?: Tracing): Promise<RunningWorker> {
  installRuntime(logger, config.logLevel);
  const orm = await openDatabase(config.databaseUrl);
  const s3 = openS3ObjectStorage(config.storage);
  const { storage } = s3;
  const lifecycle = await LifecycleClient.connect(config, temporalClientInterceptors(tracing));
  const objects = new StoredObjectStore(orm);
  const now = () => new Date();
  if (config.worker.schedules) {
    await ensureSweepSchedule(config.temporal.address, config.temporal.namespace, config.temporal.taskQueue, config.retention.sweepIntervalSeconds, {
      batchSize: 100,
      maxBatches: 1000,
      orphanMinAgeSeconds: config.storage.presignUploadExpirySeconds,
    });
  }
  const webhooks = await createWebhookWorker(config, orm);
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    workflowsPath,
    bundlerOptions: workflowBundlerOptions,
    activities: {
      ...createLifecycleActivities(
        { objects, storage, retention: config.retention, inlineScanMaxBytes: config.scan.inlineMaxBytes, retentionChanged: (ref) => lifecycle.retentionChanged(ref), now },
        config.worker.faultInjection ? new FaultInjector() : undefined,
      ),
      ...createSweepActivities({
        objects,
        storage,
        workflowRunning: (ref) => lifecycle.isRunning(ref),
        redrive: (ref) => lifecycle.retentionChanged(ref),
        scanDeadlineSeconds: scanDeadlineSeconds(config),
        now,
      }),
      ...webhooks.activities,
    },
    shutdownGraceTime: `${config.shutdownGraceSeconds}s`,
    maxCachedWorkflows: config.worker.maxCachedWorkflows,
    maxConcurrentWorkflowTaskExecutions: config.worker.maxConcurrentWorkflowTaskExecutions,
    maxConcurrentLocalActivityExecutions: config.worker.maxConcurrentLocalActivityExecutions,
    maxConcurrentActivityTaskExecutions: config.worker.maxConcurrentActivityTaskExecutions,
    ...temporalWorkerTracing(tracing),
  });
  if (config.worker.faultInjection) logger.warn("FAULT_INJECTION=workflow-tasks: every lifecycle step fails its workflow task once");
  logger.info({ taskQueue: config.temporal.taskQueue }, "worker started");
  const done = worker.run().finally(async () => {
    await Promise.allSettled([orm.close(), lifecycle.close(), webhooks.close(), connection.close(), s3.close()]);
  });
  return {
    done,
    async stop() {
      if (worker.getState() === "RUNNING") worker.shutdown();
      await done;
    },
  };
}
