import { bundleWorkflowCode, DefaultLogger, type LogEntry, type LogLevel, NativeConnection, Runtime, Worker } from "@temporalio/worker";
import type { Config } from "../config/config.js";
import { scanDeadlineSeconds } from "../config/scan.js";
import type { Logger } from "../logger.js";
import { openDatabase } from "../adapters/postgres/orm.js";
import { LifecycleObjectStore } from "../adapters/postgres/lifecycle-object-store.js";
import { SweepObjectStore } from "../adapters/postgres/sweep-object-store.js";
import { recordMultipartAborts } from "../adapters/postgres/multipart-upload-aborts.js";
import { openS3ObjectStorage } from "../adapters/s3/s3-object-storage.js";
import { LifecycleClient } from "../adapters/temporal/lifecycle-client.js";
import { FaultInjector } from "../../workflows/activities/fault-injection.js";
import { createLifecycleActivities } from "../../workflows/activities/lifecycle-activities.js";
import { createSweepActivities } from "../../workflows/activities/sweep-activities.js";
import { ensureSweepSchedule, SWEEP_SCHEDULE_ID } from "../adapters/temporal/sweep-schedule.js";
import { AUDIT_CHECKPOINT_SCHEDULE_ID, ensureAuditCheckpointSchedule } from "../adapters/temporal/audit-checkpoint-schedule.js";
import { AuditChainReaderStore } from "../adapters/postgres/audit-chain-reader.js";
import { PostgresAuditCheckpointStore } from "../adapters/postgres/audit-checkpoint-store.js";
import { createAuditCheckpointActivities } from "../../workflows/activities/audit-checkpoint-activities.js";
import { logScheduleOutcome } from "./schedule-outcome-log.js";
import { createWebhookWorker, type SharedWorkerOptions } from "./webhook-worker.js";
import { startCustomFieldIndexBuilder } from "./custom-field-index-worker.js";
import { workflowBundlerOptions, workflowsPath } from "../adapters/temporal/workflow-bundle.js";
import { cachedWorkflowBundle } from "../adapters/temporal/workflow-bundle-cache.js";
import { pollerOptions } from "../adapters/temporal/worker-pollers.js";
import { temporalClientInterceptors, temporalWorkerTracing } from "../observability/temporal-tracing.js";
import type { Tracing } from "../observability/tracing.js";
import { workerClamd } from "../config/malware-scanner.js";
import { clamdEngine } from "./malware-engine.js";
import { startMalwareDatabaseWatch } from "./malware-database-watch.js";
import { tuneWorkerHeap } from "./worker-heap.js";
import { RescanObjectStore } from "../adapters/postgres/rescan-object-store.js";
import { createRescanActivities } from "../../workflows/activities/rescan-activities.js";

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
  tuneWorkerHeap();
  installRuntime(logger, config.logLevel);
  const clamd = workerClamd(config.clamd, config.developmentMode);
  const orm = await openDatabase(config.databaseUrl, config.database.poolMax, config.database);
  const s3 = openS3ObjectStorage(config.storage);
  const { storage } = s3;
  const lifecycle = await LifecycleClient.connect(config, temporalClientInterceptors(tracing));
  const now = () => new Date();
  const malware = clamd ? clamdEngine(clamd, logger) : undefined;
  /** Whether this worker's deployment owns the shared schedules (and with them the re-scan watch). */
  let ownsSchedules = false;
  if (config.worker.schedules) {
    // The deployment is named by its main task queue: its replicas share it, another deployment's differs.
    const owner = config.temporal.taskQueue;
    const outcome = await ensureSweepSchedule(config.temporal.address, config.temporal.namespace, config.temporal.taskQueue, config.retention.sweepIntervalSeconds, {
      batchSize: config.retention.sweepBatchSize,
      maxBatches: config.retention.sweepMaxBatches,
      orphanMinAgeSeconds: config.storage.presignUploadExpirySeconds,
    }, owner);
    logScheduleOutcome(logger, SWEEP_SCHEDULE_ID, owner, outcome);
    ownsSchedules = outcome.decision !== "leave";
    const audit = await ensureAuditCheckpointSchedule(config.temporal.address, config.temporal.namespace, config.temporal.taskQueue, config.audit.checkpointIntervalSeconds, {
      batchSize: 50,
      maxBatches: 200,
    }, owner);
    logScheduleOutcome(logger, AUDIT_CHECKPOINT_SCHEDULE_ID, owner, audit);
  }
  const shared = await sharedWorkerOptions(tracing, config.worker.workflowBundleCache);
  const webhooks = await createWebhookWorker(config, orm, shared, logger);
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    ...shared,
    activities: {
      ...createLifecycleActivities(
        {
          objects: new LifecycleObjectStore(orm),
          storage,
          retention: config.retention,
          inlineScanMaxBytes: config.scan.inlineMaxBytes,
          officeLimits: { maxExpansionRatio: config.scan.officeMaxExpansionRatio, maxUncompressedBytes: config.scan.officeMaxUncompressedBytes },
          pdfLimits: { maxObjectStreamBytes: config.scan.pdfMaxObjectStreamBytes, maxFileBytes: config.scan.pdfMaxInflatedBytes },
          ...(malware ? { malware } : {}),
          svgLimits: {
            maxBytes: config.scan.svgMaxBytes,
            maxDepth: config.scan.svgMaxDepth,
            maxElements: config.scan.svgMaxElements,
            maxCssChars: config.scan.svgMaxCssChars,
          },
          retentionChanged: (ref, why) => lifecycle.retentionChanged(ref, why),
          multipartAborted: (count) => recordMultipartAborts(orm, "deadline", count),
          now,
        },
        config.worker.faultInjection ? new FaultInjector() : undefined,
      ),
      ...createSweepActivities({
        objects: new SweepObjectStore(orm),
        storage,
        workflowRunning: (ref) => lifecycle.isRunning(ref),
        redrive: (ref) => lifecycle.retentionChanged(ref, "scan re-driven by the sweep"),
        scanDeadlineSeconds: scanDeadlineSeconds(config),
        storageDeleteMaxFailedRuns: config.retention.storageDeleteMaxFailedRuns,
        pendingUploadSeconds: config.retention.tempUploadSeconds,
        multipartAborted: async (count) => {
          if (count === 0) return;
          logger.info({ count }, "sweep aborted stale multipart uploads");
          await recordMultipartAborts(orm, "sweep", count);
        },
        now,
      }),
      ...(malware
        ? createRescanActivities({
            objects: new RescanObjectStore(orm),
            storage,
            malware,
            retention: config.retention,
            statusChanged: (ref) => lifecycle.retentionChanged(ref, "quarantined by a malware re-scan"),
            now,
          })
        : {}),
      ...webhooks.activities,
      ...createAuditCheckpointActivities({
        chain: new AuditChainReaderStore(orm),
        checkpoints: new PostgresAuditCheckpointStore(orm),
        keys: config.audit.signingKeys,
        now,
        brokenChain: (tenantId, problem) => logger.error({ tenantId, problem }, "audit chain does not verify: no checkpoint signed"),
      }),
    },
    shutdownGraceTime: `${config.shutdownGraceSeconds}s`,
    maxCachedWorkflows: config.worker.maxCachedWorkflows,
    maxConcurrentWorkflowTaskExecutions: config.worker.maxConcurrentWorkflowTaskExecutions,
    maxConcurrentLocalActivityExecutions: config.worker.maxConcurrentLocalActivityExecutions,
    maxConcurrentActivityTaskExecutions: config.worker.maxConcurrentActivityTaskExecutions,
    ...pollerOptions(config.worker),
  });
  if (!clamd) logger.warn("CLAMD_ADDRESS is not set: uploads are not scanned for malware (development mode only)");
  if (config.worker.faultInjection) logger.warn("FAULT_INJECTION=workflow-tasks: every lifecycle step fails its workflow task once");
  // The pollers as the SDK compiled them, the ones it hands sdk-core: proof they were not ignored.
  const { workflowTaskPollerBehavior, activityTaskPollerBehavior, nonStickyToStickyPollRatio } = worker.options;
  logger.info(
    { taskQueue: config.temporal.taskQueue, webhookTaskQueue: config.webhooks.taskQueue, workflowTaskPollerBehavior, activityTaskPollerBehavior, nonStickyToStickyPollRatio },
    "worker started",
  );
  if (config.webhooks.secretKeys.derived) logger.warn("WEBHOOK_SECRET_KEY is not set: webhook secrets use the development key (development mode only)");
  if (config.audit.developmentKey) logger.warn("AUDIT_SIGNING_KEY is not set: audit checkpoints are signed with the development key (development mode only)");
  // Either worker stopping (shutdown or a fatal error) stops the other.
  const indexBuilder = await startCustomFieldIndexBuilder(config, logger);
  // The watch belongs with the schedules: the owning deployment's workers start re-scans, on its
  // task queue (its replicas each watch; a start is deduplicated by the version's workflow id).
  const databaseWatch = malware && ownsSchedules ? await startMalwareDatabaseWatch(config, orm, malware.scanner, logger) : undefined;
  const done = Promise.all([
    worker.run().finally(() => stopWorker(webhooks.worker)),
    webhooks.worker.run().finally(() => stopWorker(worker)),
  ]).then(() => undefined).finally(async () => {
    await databaseWatch?.stop();
    await Promise.allSettled([orm.close(), lifecycle.close(), webhooks.close(), indexBuilder.stop(), connection.close(), s3.close()]);
  });
  return {
    done,
    async stop() {
      stopWorker(worker);
      stopWorker(webhooks.worker);
      await done;
    },
  };
}

function stopWorker(worker: Worker): void {
  if (worker.getState() === "RUNNING") worker.shutdown();
}

/**
 * One workflow bundle for both workers (bundling costs seconds of CPU at every start), with the
 * tracing's workflow interceptors bundled in; the activity interceptors and sinks are per worker.
 */
async function sharedWorkerOptions(tracing: Tracing | undefined, cacheDir: string | undefined): Promise<SharedWorkerOptions> {
  const { interceptors, sinks } = temporalWorkerTracing(tracing);
  const { workflowModules, ...perWorker } = interceptors ?? {};
  const workflowBundle = await cachedWorkflowBundle(cacheDir, workflowModules ?? [], () =>
    bundleWorkflowCode({
      workflowsPath,
      workflowInterceptorModules: workflowModules,
      webpackConfigHook: workflowBundlerOptions.webpackConfigHook,
      logger: Runtime.instance().logger,
    }),
  );
  return { workflowBundle, interceptors: perWorker, ...(sinks ? { sinks } : {}) };
}
