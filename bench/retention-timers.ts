/**
 * 8. Retention timers at scale: IMPORT_FILE uploads made READY with a short retention
 * (RETENTION_IMPORT_ARTIFACT_SECONDS from the stack env), each held by its workflow's durable
 * timer. Expiry lag (deleted_at − retention_expires_at) against the sweep interval, which is what
 * a cron-only design would give at worst; worker RSS against the worker just after start; the
 * Temporal history per object against the server's default history limits.
 */
import { Client, Connection } from "@temporalio/client";
import type { MikroORM } from "@mikro-orm/postgresql";
import { parseConfig, type Config } from "../src/config.js";
import { openDatabase } from "../src/adapters/postgres/orm.js";
import { csv } from "../test/fixtures/files/index.js";
import type { BenchGroup, StackContext } from "./context.js";
import { baseline, figure, type Figure } from "./figure.js";
import { mean, percentile, timed } from "./stats.js";
import { apiFor, progress, runPool, sleep, type Api } from "./support.js";
import { uploadThrough } from "./uploads.js";

const CREATE_CONCURRENCY = 8;
const DESCRIBED_WORKFLOWS = 5;
const EXPIRY_GRACE_MS = 180_000;
/** Temporal server defaults (limit.historyCount.error, limit.historySize.error). */
const TEMPORAL_HISTORY_EVENTS_LIMIT = 51_200;
const TEMPORAL_HISTORY_BYTES_LIMIT = 50 * 1024 * 1024;

/**
 * Twice a second while the group runs: the worker's RSS, and how many READY objects are waiting
 * for their timer (early ones expire while later ones are still being created).
 */
function sampler(readRss: () => number | undefined, orm: MikroORM, tenant: string) {
  const peak = { rssMb: readRss() ?? 0, pending: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      peak.rssMb = Math.max(peak.rssMb, readRss() ?? 0);
      // A failed sample is only a missing sample; it must not end the run as an unhandled rejection.
      const rows = await orm.em
        .fork()
        .execute<{ n: number }[]>("select count(*)::int as n from stored_objects where tenant_id = ? and ready_at is not null and deleted_at is null", [tenant])
        .catch(() => []);
      peak.pending = Math.max(peak.pending, rows[0]?.n ?? 0);
      await sleep(500);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}

async function waitForExpiry(orm: MikroORM, tenant: string, count: number): Promise<void> {
  const sql = "select count(*)::int as left, max(retention_expires_at) as last from stored_objects where tenant_id = ? and deleted_at is null";
  for (;;) {
    const [row] = await orm.em.fork().execute<{ left: number; last: Date | null }[]>(sql, [tenant]);
    if (row.left === 0) return;
    if (row.last && Date.now() > new Date(row.last).getTime() + EXPIRY_GRACE_MS) {
      throw new Error(`${row.left} of ${count} objects were not deleted ${EXPIRY_GRACE_MS / 1000} s after their deadline`);
    }
    await sleep(1000);
  }
}

async function lagsSeconds(orm: MikroORM, tenant: string): Promise<{ lags: number[]; workflowIds: string[] }> {
  const rows = await orm.em.fork().execute<{ lag: string; workflow_id: string }[]>(
    "select extract(epoch from deleted_at - retention_expires_at) as lag, workflow_id from stored_objects where tenant_id = ?",
    [tenant],
  );
  return { lags: rows.map((r) => Number(r.lag)), workflowIds: rows.map((r) => r.workflow_id) };
}

async function histories(config: Config, workflowIds: string[]): Promise<{ events: number[]; bytes: number[] }> {
  const connection = await Connection.connect({ address: config.temporal.address });
  try {
    const client = new Client({ connection, namespace: config.temporal.namespace });
    const described = await Promise.all(workflowIds.map((id) => client.workflow.getHandle(id).describe()));
    return { events: described.map((d) => d.historyLength), bytes: described.map((d) => d.historySize ?? NaN) };
  } finally {
    await connection.close();
  }
}

async function createReady(api: Api, count: number): Promise<void> {
  const bytes = csv([["id", "name"], ["1", "first"], ["2", "second"]]);
  const spec = { objectClass: "IMPORT_FILE", contentType: "text/csv", bytes, filename: "import.csv" };
  const statuses = await runPool(count, CREATE_CONCURRENCY, async () => (await uploadThrough(api, spec)).status);
  const notReady = statuses.filter((s) => s !== "READY").length;
  if (notReady > 0) throw new Error(`${notReady} of ${count} import files did not end READY`);
}

export const retentionTimers: BenchGroup = {
  name: "timers",
  kind: "stack",
  async run(context) {
    const { stack, options } = context;
    const config = parseConfig(stack.env);
    const api = await apiFor(stack.apiUrl, "bench-timers");
    const orm = await openDatabase(config.databaseUrl, 2);
    const sampling = sampler(stack.workerRssMb, orm, api.tenant);
    try {
      const before = stack.workerRssMb();
      progress(`timers: ${options.timerObjects} IMPORT_FILE uploads to READY (retention ${config.retention.importArtifactSeconds} s)`);
      const created = await timed(() => createReady(api, options.timerObjects));
      progress(`timers: created in ${(created.ms / 1000).toFixed(1)} s; waiting for every timer to expire its object`);
      await waitForExpiry(orm, api.tenant, options.timerObjects);
      const { lags, workflowIds } = await lagsSeconds(orm, api.tenant);
      const history = await histories(config, workflowIds.slice(0, DESCRIBED_WORKFLOWS));
      const peak = await sampling.stop();
      return describe(context, config, { lags, history, peak, before, createdMs: created.ms });
    } finally {
      await sampling.stop();
      await orm.close();
    }
  },
};

interface Measured {
  lags: number[];
  history: { events: number[]; bytes: number[] };
  peak: { rssMb: number; pending: number };
  before: number | undefined;
  createdMs: number;
}

function describe({ options, workerRssAtStartMb }: StackContext, config: Config, m: Measured): Figure[] {
  const n = options.timerObjects;
  const sweep = baseline("cron-only sweep interval", config.retention.sweepIntervalSeconds, "s");
  const created = `${n} made READY in ${(m.createdMs / 1000).toFixed(0)} s at concurrency ${CREATE_CONCURRENCY}`;
  const described = `mean of ${m.history.events.length} described workflows`;
  return [
    figure(`Expiry lag p50, ${n} timers`, percentile(m.lags, 50), "s", sweep, `retention ${config.retention.importArtifactSeconds} s; ${created}`),
    figure(`Expiry lag p99, ${n} timers`, percentile(m.lags, 99), "s", sweep, `n=${m.lags.length}; at most ${m.peak.pending} timers pending at once; a cron-only design lags up to the interval`),
    figure(
      `Worker RSS peak, ${n} timers`,
      m.peak.rssMb,
      "MiB",
      workerRssAtStartMb === undefined ? null : baseline("worker RSS after start", workerRssAtStartMb, "MiB"),
      `${m.before === undefined ? "?" : m.before.toFixed(0)} MiB before this group`,
    ),
    figure("Temporal history per object", mean(m.history.events), "events", baseline("Temporal default limit", TEMPORAL_HISTORY_EVENTS_LIMIT, "events"), described),
    figure("Temporal history size per object", mean(m.history.bytes) / 1000, "KB", baseline("Temporal default limit", TEMPORAL_HISTORY_BYTES_LIMIT / 1000, "KB"), described),
  ];
}
