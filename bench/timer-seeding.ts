/**
 * The timers group, BENCH_TIMER_MODE=seed (the default): N READY IMPORT_FILE rows inserted with
 * one INSERT ... SELECT generate_series, a tiny object in MinIO under each row's storage key, and
 * then each row's workflow started the way the service does when an object's retention changes
 * (LifecycleClient.retentionChanged: signal-with-start, mode "retention"). The full upload flow
 * makes under 10 objects a second here; this arms 20-35 timers a second, bounded by the Temporal dev
 * server (SQLite, a synced write per transaction), not by the worker.
 *
 * The deadlines: R seconds after the first start (R = the seeding time predicted by a pilot of
 * PILOT_OBJECTS, with a margin, + PENDING_MARGIN_S), so every timer is armed before the first one
 * fires, then spread evenly over a window so that they arrive at EXPIRY_LOAD of the pilot's rate.
 * Every row has its object in MinIO, so each expiry's storage delete removes a real object.
 */
import { createHash } from "node:crypto";
import v8 from "node:v8";
import { ListObjectsV2Command, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { isGrpcServiceError, WorkflowNotFoundError, type Client } from "@temporalio/client";
import type { MikroORM } from "@mikro-orm/postgresql";
import { parseConfig, type Config } from "../src/config/config.js";
import { openDatabase } from "../src/adapters/postgres/orm.js";
import { createS3Client } from "../src/adapters/s3/s3-object-storage.js";
import { LifecycleClient } from "../src/adapters/temporal/lifecycle-client.js";
import { storageKeyFor } from "../src/domain/files/storage-key.js";
import { lifecycleWorkflowId } from "../src/domain/files/stored-object.js";
import { csv } from "../test/fixtures/files/index.js";
import type { StackContext } from "./context.js";
import { baseline, figure, type Figure } from "./figure.js";
import { percentile, timed } from "./stats.js";
import { progress, runPool, sleep } from "./support.js";
import { expiryLags, histories, historyFigures, rssSampler, spread, temporalClient, waitForExpiry } from "./timer-support.js";

const TENANT = "bench-timers";
/** Predicts the seeding rate; its workflows are terminated before the real seeding starts. */
const PILOT_TENANT = "bench-timers-pilot";
const PILOT_OBJECTS = 300;
const OWNER = { type: "User", id: "bench-owner" };
const START_CONCURRENCY = 50;
const UPLOAD_CONCURRENCY = 32;
/** Workflows described while their timer is pending and again after expiry. */
const DESCRIBED_WORKFLOWS = 20;
/** Workflows whose history is polled for their timer, from the last started and from all. */
const PROBED_WORKFLOWS = 10;
/** The predicted seeding time is stretched by this, then the pending margin is added. */
const SEEDING_SAFETY = 1.25;
const PENDING_MARGIN_S = 30;
/**
 * Deadlines arrive at this share of the pilot's arming rate: expiring costs Temporal about what
 * arming does, and deadlines at its limit would measure the dev server's throughput, not the lag.
 */
const EXPIRY_LOAD = 2 / 3;
/** A seeding slower than predicted is reported (objects expired before the first deadline), up to this. */
const ARM_TIMEOUT_MS = 600_000;

const BYTES = csv([["id", "name"], ["1", "first"], ["2", "second"]]);

interface Seeded {
  /** Object ids in deadline order. */
  ids: string[];
  insertMs: number;
}

/**
 * N READY IMPORT_FILE rows, as finishScan leaves them, with deadlines `step` seconds apart
 * starting at `firstDeadline`.
 */
async function insertReady(orm: MikroORM, tenant: string, count: number, firstDeadline: Date, step: number): Promise<Seeded> {
  const scan = JSON.stringify({ passed: true, checks: [], finishedAt: new Date().toISOString(), bytesRead: BYTES.length });
  const md5 = createHash("md5").update(BYTES).digest("hex");
  const sql = `
    insert into stored_objects (id, tenant_id, storage_key, status, object_class, owner_entity_type, owner_entity_id,
      original_filename, content_type, file_size, checksum_md5, is_current, retention_policy, retention_expires_at,
      scan_result, workflow_id, uploaded_at, ready_at, created_at, updated_at)
    select s.id, ?, ? || s.id, 'READY', 'IMPORT_FILE', ?, ?, 'import.csv', 'text/csv', ?, ?, true, 'IMPORT_ARTIFACT_90D',
      ?::timestamptz + make_interval(secs => s.g * ?::float8), ?::jsonb, ? || s.id, now(), now(), now(), now()
    from (select gen_random_uuid() as id, g from generate_series(0, ? - 1) as g) as s
    returning id, retention_expires_at`;
  const params = [
    tenant,
    storageKeyFor(tenant, OWNER.type, OWNER.id, ""),
    OWNER.type,
    OWNER.id,
    BYTES.length,
    md5,
    firstDeadline.toISOString(),
    step,
    scan,
    lifecycleWorkflowId(tenant, ""),
    count,
  ];
  const { ms, value: rows } = await timed(() => orm.em.fork().execute<{ id: string; retention_expires_at: Date }[]>(sql, params));
  rows.sort((a, b) => new Date(a.retention_expires_at).getTime() - new Date(b.retention_expires_at).getTime());
  return { ids: rows.map((r) => r.id), insertMs: ms };
}

/** Moves every deadline of `tenant` so that the first is `firstDeadline`, keeping the spacing. */
async function rebaseDeadlines(orm: MikroORM, tenant: string, firstDeadline: Date): Promise<void> {
  await orm.em.fork().execute(
    `update stored_objects set retention_expires_at = retention_expires_at + (?::timestamptz - (select min(retention_expires_at) from stored_objects where tenant_id = ?))
     where tenant_id = ?`,
    [firstDeadline.toISOString(), tenant, tenant],
  );
}

async function uploadAll(s3: S3Client, config: Config, tenant: string, ids: string[]): Promise<void> {
  await runPool(ids.length, UPLOAD_CONCURRENCY, (i) =>
    s3.send(
      new PutObjectCommand({
        Bucket: config.storage.bucket,
        Key: storageKeyFor(tenant, OWNER.type, OWNER.id, ids[i]),
        Body: BYTES,
        ContentType: "text/csv",
        ServerSideEncryption: "AES256",
      }),
    ),
  );
}

/** Keys left in MinIO under the tenant's prefix. */
async function remainingKeys(s3: S3Client, config: Config, tenant: string): Promise<number> {
  let count = 0;
  let ContinuationToken: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: config.storage.bucket, Prefix: `tenants/${tenant}/`, ContinuationToken }));
    count += page.KeyCount ?? 0;
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return count;
}

/** The service's own call when an object's retention changes, once per object. */
async function startAll(lifecycle: LifecycleClient, tenant: string, ids: string[]): Promise<void> {
  await runPool(ids.length, START_CONCURRENCY, (i) => lifecycle.retentionChanged({ tenantId: tenant, objectId: ids[i] }, "restored"));
}

async function timerArmed(client: Client, workflowId: string): Promise<boolean> {
  try {
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    return (history.events ?? []).some((e) => e.timerStartedEventAttributes != null);
  } catch (error) {
    // Not started yet (fetchHistory passes the service's NOT_FOUND through as is).
    if (error instanceof WorkflowNotFoundError || (isGrpcServiceError(error) && error.code === 5)) return false;
    throw error;
  }
}

/**
 * Resolves once each probed workflow has started its retention timer: the last ones started
 * (the worker takes tasks about in order, so they arm last) and a spread over all.
 */
async function waitArmed(client: Client, workflowIds: string[], timeoutMs: number): Promise<void> {
  let waiting = [...new Set([...workflowIds.slice(-PROBED_WORKFLOWS), ...spread(workflowIds, PROBED_WORKFLOWS)])];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const armed = await Promise.all(waiting.map((id) => timerArmed(client, id)));
    waiting = waiting.filter((_, i) => !armed[i]);
    if (waiting.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${waiting.length} probed workflows had no timer ${timeoutMs / 1000} s after the last start`);
    await sleep(1000);
  }
}

/** Workflows of `tenant` that Temporal's visibility store counts as running (NaN if it cannot). */
async function runningCount(client: Client, tenant: string): Promise<number> {
  try {
    const { count } = await client.workflow.count(`TenantId = "${tenant}" AND ExecutionStatus = "Running"`);
    return count;
  } catch {
    return NaN;
  }
}

async function deletedCount(orm: MikroORM, tenant: string): Promise<number> {
  const [row] = await orm.em.fork().execute<{ n: number }[]>("select count(*)::int as n from stored_objects where tenant_id = ? and deleted_at is not null", [tenant]);
  return row.n;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

interface PilotRate {
  /** Timers armed per second, over the whole pilot. */
  perSecond: number;
  /** Seconds from the first start until the pilot's last workflow was armed. */
  armedS: number;
  count: number;
}

/**
 * The pilot: a small seeding that tells how fast this machine arms timers, so that the real
 * seeding's deadlines can be set after its predicted end. Its deadlines are an hour out (timers
 * firing during the pilot would slow it); its workflows are terminated afterwards.
 */
async function pilot(orm: MikroORM, lifecycle: LifecycleClient, client: Client, count: number): Promise<PilotRate> {
  const { ids } = await insertReady(orm, PILOT_TENANT, count, new Date(Date.now() + 3600_000), 0);
  const workflowIds = ids.map((id) => lifecycleWorkflowId(PILOT_TENANT, id));
  const started = Date.now();
  await startAll(lifecycle, PILOT_TENANT, ids);
  await waitArmed(client, workflowIds, ARM_TIMEOUT_MS);
  const armedS = (Date.now() - started) / 1000;
  await runPool(workflowIds.length, START_CONCURRENCY, (i) => client.workflow.getHandle(workflowIds[i]).terminate("bench pilot"));
  return { perSecond: count / armedS, armedS, count };
}

/** The SDK's default sticky cache size (reuseV8Context) for this Node's heap limit, as the worker computes it. */
function maxCachedWorkflowsDefault(): number {
  const heapMiB = v8.getHeapStatistics().heap_size_limit / 2 ** 20;
  return Math.max(Math.floor((Math.max(heapMiB - 200, 0) * 600) / 1024), 10);
}

export async function runSeeded({ stack, options, workerRssAtStartMb }: StackContext): Promise<Figure[]> {
  const config = parseConfig(stack.env);
  const n = options.timerObjects;
  const orm = await openDatabase(config.databaseUrl, 4);
  const s3 = createS3Client(config.storage);
  const client = await temporalClient(config);
  // Connected as the API connects it (src/main/api.ts).
  const lifecycle = await LifecycleClient.connect(config);
  const rss = rssSampler(stack.workerRssMb);
  try {
    const before = stack.workerRssMb();
    const pilotCount = Math.min(PILOT_OBJECTS, Math.max(n, 100));
    progress(`timers: pilot of ${pilotCount} seeded objects`);
    const rate = await pilot(orm, lifecycle, client, pilotCount);
    const predictedS = n / rate.perSecond;
    const windowS = Math.max(PENDING_MARGIN_S, Math.ceil(n / (rate.perSecond * EXPIRY_LOAD)));
    const retentionS = Math.ceil(predictedS * SEEDING_SAFETY + PENDING_MARGIN_S);
    const pilotNote = `pilot: ${rate.count} armed in ${rate.armedS.toFixed(1)} s, ${rate.perSecond.toFixed(0)}/s`;
    progress(`timers: ${pilotNote}; predicted seeding ${predictedS.toFixed(0)} s; deadlines ${retentionS} s after the first start, over ${windowS} s`);

    // Deadlines an hour out until the uploads are done; then moved to R after the first start.
    const step = n > 1 ? windowS / (n - 1) : 0;
    const seeded = await insertReady(orm, TENANT, n, new Date(Date.now() + 3600_000), step);
    const workflowIds = seeded.ids.map((id) => lifecycleWorkflowId(TENANT, id));
    progress(`timers: ${n} rows inserted in ${seconds(seeded.insertMs)} s; uploading ${n} objects to MinIO`);
    const uploaded = await timed(() => uploadAll(s3, config, TENANT, seeded.ids));
    progress(`timers: uploaded in ${seconds(uploaded.ms)} s; starting ${n} workflows at concurrency ${START_CONCURRENCY}`);

    const startedAt = Date.now();
    const firstDeadline = startedAt + retentionS * 1000;
    await rebaseDeadlines(orm, TENANT, new Date(firstDeadline));
    await startAll(lifecycle, TENANT, seeded.ids);
    const callsMs = Date.now() - startedAt;
    await waitArmed(client, workflowIds, ARM_TIMEOUT_MS);
    const armedAt = Date.now();
    const seedMs = armedAt - startedAt;
    progress(`timers: calls done in ${seconds(callsMs)} s, timers armed in ${seconds(seedMs)} s; ${seconds(firstDeadline - armedAt)} s to the first deadline`);

    const pendingHistory = await histories(client, spread(workflowIds, DESCRIBED_WORKFLOWS));
    // Just before the first deadline: nothing expired yet, every workflow running.
    await sleep(Math.max(0, firstDeadline - 2000 - Date.now()));
    const [expiredEarly, running] = await Promise.all([deletedCount(orm, TENANT), runningCount(client, TENANT)]);
    const pendingRss = rss.peak(armedAt, Math.max(firstDeadline, armedAt + 1000));
    progress(`timers: at the first deadline ${n - expiredEarly} pending, ${running} running; worker RSS ${pendingRss.toFixed(0)} MiB; waiting for expiry`);

    await waitForExpiry(orm, TENANT, n);
    const doneAt = Date.now();
    const { lags } = await expiryLags(orm, TENANT);
    const [doneHistory, left] = await Promise.all([histories(client, spread(workflowIds, DESCRIBED_WORKFLOWS)), remainingKeys(s3, config, TENANT)]);
    const expiryRss = rss.peak(firstDeadline, doneAt);

    const sweep = baseline("cron-only sweep interval", config.retention.sweepIntervalSeconds, "s");
    const perTimerKb = ((pendingRss - (before ?? NaN)) * 1024) / n;
    const pendingNote = expiredEarly === 0 ? `all ${n} pending at the first deadline` : `${expiredEarly} of ${n} expired before the first deadline`;
    return [
      figure(
        `Timer seeding rate, ${n} objects`,
        n / (seedMs / 1000),
        "workflows/s",
        null,
        `signal-with-start (mode retention) at concurrency ${START_CONCURRENCY} until the last timer was armed, ${seconds(seedMs)} s (calls ${seconds(callsMs)} s); rows: one INSERT, ${seconds(seeded.insertMs)} s; ${n} tiny MinIO objects uploaded in ${seconds(uploaded.ms)} s`,
      ),
      figure(
        `Expiry lag p50, ${n} timers`,
        percentile(lags, 50),
        "s",
        sweep,
        `deadlines ${retentionS} s after the first start (${pilotNote}), spread over ${windowS} s (${(n / windowS).toFixed(0)}/s); ${pendingNote} (${running} running)`,
      ),
      figure(
        `Expiry lag p99, ${n} timers`,
        percentile(lags, 99),
        "s",
        sweep,
        `n=${lags.length}, max ${Math.max(...lags).toFixed(1)} s; MinIO objects left after expiry: ${left} of ${n}`,
      ),
      figure(
        `Worker RSS, ${n} timers pending`,
        pendingRss,
        "MiB",
        workerRssAtStartMb === undefined ? null : baseline("worker RSS after start", workerRssAtStartMb, "MiB"),
        `peak while all were pending; ${before === undefined ? "?" : before.toFixed(0)} MiB before this group (${perTimerKb.toFixed(0)} KB per timer); ${expiryRss.toFixed(0)} MiB peak while expiring; the worker caches at most ~${maxCachedWorkflowsDefault()} workflows (SDK default), the rest wait in Temporal only`,
      ),
      ...historyFigures(pendingHistory, ", timer pending", `mean of ${pendingHistory.events.length} described workflows, timer armed`),
      ...historyFigures(doneHistory, ", after expiry", `the same ${doneHistory.events.length} workflows, completed`),
    ];
  } finally {
    await rss.stop();
    await lifecycle.close();
    await client.connection.close();
    s3.destroy();
    await orm.close();
  }
}
