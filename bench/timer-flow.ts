/**
 * The timers group, BENCH_TIMER_MODE=flow: IMPORT_FILE uploads made READY through the full
 * upload flow (initiate, PUT, complete, scan) with a short retention (RETENTION_IMPORT_ARTIFACT_SECONDS
 * from the stack env), each then held by its workflow's durable timer. Under 10 objects a
 * second here, so a few hundred; early ones expire while later ones are still being created.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { parseConfig } from "../src/config/config.js";
import { openDatabase } from "../src/adapters/postgres/orm.js";
import { csv } from "../test/fixtures/files/index.js";
import type { StackContext } from "./context.js";
import { baseline, figure, type Figure } from "./figure.js";
import { percentile, timed } from "./stats.js";
import { apiFor, progress, runPool, sleep, type Api } from "./support.js";
import { expiryLags, histories, historyFigures, temporalClient, waitForExpiry } from "./timer-support.js";
import { uploadThrough } from "./uploads.js";

const CREATE_CONCURRENCY = 8;
const DESCRIBED_WORKFLOWS = 5;

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

async function createReady(api: Api, count: number): Promise<void> {
  const bytes = csv([["id", "name"], ["1", "first"], ["2", "second"]]);
  const spec = { objectClass: "IMPORT_FILE", contentType: "text/csv", bytes, filename: "import.csv" };
  const statuses = await runPool(count, CREATE_CONCURRENCY, async () => (await uploadThrough(api, spec)).status);
  const notReady = statuses.filter((s) => s !== "READY").length;
  if (notReady > 0) throw new Error(`${notReady} of ${count} import files did not end READY`);
}

export async function runThroughFlow({ stack, options, workerRssAtStartMb }: StackContext): Promise<Figure[]> {
  const config = parseConfig(stack.env);
  const api = await apiFor(stack.apiUrl, "bench-timers");
  const orm = await openDatabase(config.databaseUrl, 2);
  const client = await temporalClient(config);
  const sampling = sampler(stack.workerRssMb, orm, api.tenant);
  try {
    const n = options.timerObjects;
    const before = stack.workerRssMb();
    progress(`timers: ${n} IMPORT_FILE uploads to READY (retention ${config.retention.importArtifactSeconds} s)`);
    const created = await timed(() => createReady(api, n));
    progress(`timers: created in ${(created.ms / 1000).toFixed(1)} s; waiting for every timer to expire its object`);
    await waitForExpiry(orm, api.tenant, n);
    const { lags, workflowIds } = await expiryLags(orm, api.tenant);
    const history = await histories(client, workflowIds.slice(0, DESCRIBED_WORKFLOWS));
    const peak = await sampling.stop();
    const sweep = baseline("cron-only sweep interval", config.retention.sweepIntervalSeconds, "s");
    const made = `${n} made READY through the upload flow in ${(created.ms / 1000).toFixed(0)} s at concurrency ${CREATE_CONCURRENCY}`;
    return [
      figure(`Expiry lag p50, ${n} timers`, percentile(lags, 50), "s", sweep, `retention ${config.retention.importArtifactSeconds} s; ${made}`),
      figure(`Expiry lag p99, ${n} timers`, percentile(lags, 99), "s", sweep, `n=${lags.length}; at most ${peak.pending} timers pending at once; a cron-only design lags up to the interval`),
      figure(
        `Worker RSS peak, ${n} timers`,
        peak.rssMb,
        "MiB",
        workerRssAtStartMb === undefined ? null : baseline("worker RSS after start", workerRssAtStartMb, "MiB"),
        `${before === undefined ? "?" : before.toFixed(0)} MiB before this group`,
      ),
      ...historyFigures(history, "", `mean of ${history.events.length} described workflows, after expiry`),
    ];
  } finally {
    await sampling.stop();
    await client.connection.close();
    await orm.close();
  }
}
