/**
 * Prometheus metrics of the API process, served at GET /metrics.
 *
 * RPC counts and latencies are measured here, by an interceptor. Uploads and scans are not: the
 * scan runs in the worker, a separate process (often many), which serves no HTTP. Rather than give
 * every worker a scrape port and sum them, the API reads what the worker already records in
 * PostgreSQL when it is scraped: live objects by status, and over the last 24 hours the scan
 * outcomes, the failed checks (stored_objects.scan_result) and the time from the verified upload
 * to the end of the scan (queue wait included: the latency a client sees). These are gauges of the
 * database, so every API replica reports the same values (aggregate with max, not sum), they
 * survive restarts, and they cost one round of aggregate queries per scrape, shared by concurrent
 * scrapes and cached for `cacheMs`. The queries scan stored_objects without a dedicated index,
 * which is fine at this service's volumes; past millions of rows, move them to counters the
 * worker exposes.
 */
import type { ServerResponse } from "node:http";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { RequestHandler } from "../rpc/http-server.js";

export interface CacheTotals {
  hits: number;
  misses: number;
}

export interface MetricsOptions {
  /** Runs a read-only SQL query on PostgreSQL and answers its rows. */
  query(sql: string): Promise<Record<string, unknown>[]>;
  /** How long SCANNING counts as stuck (scans_overdue); the scan timeout plus a minute. */
  scanOverdueSeconds?: number;
  /**
   * Hits and misses of the custom field definition cache, summed over tenants. Hook for
   * src/main/custom-fields-module.ts: until it exposes them, the cache metric is left out.
   */
  cacheTotals?: () => Promise<CacheTotals>;
  /** How long one reading of the database serves scrapes; default 10 s. */
  cacheMs?: number;
  /** Told when a source cannot be read; its metrics are then absent from that scrape. */
  onCollectError?: (error: unknown) => void;
  now?: () => number;
}

export interface Metrics {
  registry: Registry;
  /** Put it first, outside the error interceptor, so it sees the code the caller receives. */
  interceptor: Interceptor;
  /** The GET /metrics page. */
  handler: RequestHandler;
}

const RPC_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SCAN_QUANTILES = [0.5, 0.9, 0.99];

interface StoreSnapshot {
  objectsByStatus: { status: string; count: number }[];
  scansByResult: { result: string; count: number }[];
  failuresByCheck: { check: string; reason: string; count: number }[];
  scanSeconds: { quantile: number; seconds: number }[];
  webhookDeliveries: { status: string; count: number; attempts: number }[];
  scansOverdue: number;
}

const RECENT_SCANS = `scan_result is not null and (scan_result->>'finishedAt')::timestamptz > now() - interval '24 hours'`;

/** As the sweep counts it: SCANNING for longer than the scan activity's budget plus a minute. */
const SCAN_OVERDUE_SECONDS_DEFAULT = 660;

const QUERIES = {
  scansOverdue: (seconds: number) =>
    `select count(*)::int as count from stored_objects where deleted_at is null and status = 'SCANNING' and uploaded_at < now() - interval '${Math.floor(seconds)} seconds'`,
  objectsByStatus: `select status, count(*)::int as count from stored_objects where deleted_at is null group by status`,
  webhookDeliveries: `select status, count(*)::int as count, coalesce(sum(attempts), 0)::int as attempts
    from webhook_deliveries where created_at > now() - interval '24 hours' group by status`,
  scansByResult: `select case when (scan_result->>'passed')::boolean then 'passed' else 'failed' end as result, count(*)::int as count
    from stored_objects where ${RECENT_SCANS} group by 1`,
  failuresByCheck: `select c->>'name' as check, coalesce(c->>'reason', '') as reason, count(*)::int as count
    from stored_objects, jsonb_array_elements(scan_result->'checks') as c
    where ${RECENT_SCANS} and not (c->>'passed')::boolean group by 1, 2`,
  scanSeconds: `select percentile_cont(array[${SCAN_QUANTILES.join(", ")}]) within group
      (order by extract(epoch from ((scan_result->>'finishedAt')::timestamptz - uploaded_at))) as seconds
    from stored_objects where ${RECENT_SCANS} and uploaded_at is not null`,
};

/** A registry of its own per call: nothing is global, so tests and processes never share one. */
export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ["service", "method", "code"] as const;
  const requests = new Counter({ name: "rpc_requests_total", help: "RPCs handled, on every transport (REST included), by final code", labelNames, registers: [registry] });
  const durations = new Histogram({ name: "rpc_request_duration_seconds", help: "Time to the RPC's response or error", labelNames, buckets: RPC_BUCKETS, registers: [registry] });
  registerStoreGauges(registry, snapshotReader(options));
  if (options.cacheTotals) registerCacheCounter(registry, options.cacheTotals, options.onCollectError ?? (() => undefined));
  return { registry, interceptor: rpcInterceptor(requests, durations), handler: metricsHandler(registry) };
}

function rpcInterceptor(requests: Counter<string>, durations: Histogram<string>): Interceptor {
  return (next) => async (req) => {
    const started = performance.now();
    const record = (code: string) => {
      const labels = { service: req.service.typeName, method: req.method.name, code };
      requests.inc(labels);
      durations.observe(labels, (performance.now() - started) / 1000);
    };
    try {
      const res = await next(req);
      record("ok");
      return res;
    } catch (error) {
      record(codeToString(error instanceof ConnectError ? error.code : Code.Unknown));
      throw error;
    }
  };
}

/** One reading at a time, reused for `cacheMs`; a failed reading is not cached. */
function snapshotReader(options: MetricsOptions): () => Promise<StoreSnapshot | undefined> {
  const cacheMs = options.cacheMs ?? 10_000;
  const now = options.now ?? Date.now;
  let cached: { at: number; snapshot: Promise<StoreSnapshot> } | undefined;
  return async () => {
    if (!cached || now() - cached.at >= cacheMs) {
      const snapshot = readSnapshot(options.query, options.scanOverdueSeconds ?? SCAN_OVERDUE_SECONDS_DEFAULT);
      cached = { at: now(), snapshot };
      snapshot.catch(() => (cached = undefined));
    }
    try {
      return await cached.snapshot;
    } catch (error) {
      options.onCollectError?.(error);
      return undefined;
    }
  };
}

async function readSnapshot(query: MetricsOptions["query"], scanOverdueSeconds: number): Promise<StoreSnapshot> {
  const [objects, scans, failures, seconds, deliveries, overdue] = await Promise.all([
    query(QUERIES.objectsByStatus),
    query(QUERIES.scansByResult),
    query(QUERIES.failuresByCheck),
    query(QUERIES.scanSeconds),
    query(QUERIES.webhookDeliveries),
    query(QUERIES.scansOverdue(scanOverdueSeconds)),
  ]);
  const quantileValues = (seconds[0]?.seconds as number[] | null | undefined) ?? [];
  return {
    objectsByStatus: objects.map((r) => ({ status: String(r.status), count: Number(r.count) })),
    scansByResult: scans.map((r) => ({ result: String(r.result), count: Number(r.count) })),
    failuresByCheck: failures.map((r) => ({ check: String(r.check), reason: String(r.reason), count: Number(r.count) })),
    scanSeconds: quantileValues.map((value, i) => ({ quantile: SCAN_QUANTILES[i], seconds: Number(value) })),
    webhookDeliveries: deliveries.map((r) => ({ status: String(r.status), count: Number(r.count), attempts: Number(r.attempts) })),
    scansOverdue: Number(overdue[0]?.count ?? 0),
  };
}

function registerStoreGauges(registry: Registry, read: () => Promise<StoreSnapshot | undefined>): void {
  const gauge = (name: string, help: string, labelNames: string[], fill: (g: Gauge<string>, s: StoreSnapshot) => void) => {
    const metric: Gauge<string> = new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const snapshot = await read();
        metric.reset();
        if (snapshot) fill(metric, snapshot);
      },
    });
  };
  gauge("stored_objects", "Live (not deleted) stored objects by status, from PostgreSQL", ["status"], (g, s) => {
    for (const status of ["PENDING_UPLOAD", "SCANNING", "READY", "REJECTED"]) g.set({ status }, 0);
    for (const row of s.objectsByStatus) g.set({ status: row.status }, row.count);
  });
  gauge("scans_overdue", "Objects still SCANNING past their scan deadline; the retention sweep re-drives their workflows", [], (g, s) => {
    g.set(s.scansOverdue);
  });
  gauge("scans_24h", "Scans that ended in the last 24 hours, by result, from PostgreSQL", ["result"], (g, s) => {
    for (const result of ["passed", "failed"]) g.set({ result }, 0);
    for (const row of s.scansByResult) g.set({ result: row.result }, row.count);
  });
  gauge("scan_failures_24h", "Failed checks of scans that ended in the last 24 hours, by check and reason", ["check", "reason"], (g, s) => {
    for (const row of s.failuresByCheck) g.set({ check: row.check, reason: row.reason }, row.count);
  });
  gauge("webhook_deliveries_24h", "Webhook deliveries created in the last 24 hours, by status", ["status"], (g, s) => {
    for (const status of ["PENDING", "DELIVERED", "FAILED", "ENDPOINT_DISABLED"]) g.set({ status }, 0);
    for (const row of s.webhookDeliveries) g.set({ status: row.status }, row.count);
  });
  gauge("webhook_delivery_attempts_24h", "HTTP attempts of webhook deliveries created in the last 24 hours, by status", ["status"], (g, s) => {
    for (const row of s.webhookDeliveries) g.set({ status: row.status }, row.attempts);
  });
  gauge("scan_duration_seconds_24h", "Upload verified to scan ended (queue wait included), quantiles over the last 24 hours", ["quantile"], (g, s) => {
    for (const row of s.scanSeconds) g.set({ quantile: String(row.quantile) }, row.seconds);
  });
}

/** The cache counts in its store (shared by every replica with Redis); exposed as they stand. */
function registerCacheCounter(registry: Registry, totals: () => Promise<CacheTotals>, onError: (error: unknown) => void): void {
  const counter: Counter<string> = new Counter({
    name: "custom_fields_cache_requests_total",
    help: "Custom field definition cache reads, by result",
    labelNames: ["result"],
    registers: [registry],
    async collect() {
      counter.reset();
      try {
        const { hits, misses } = await totals();
        counter.inc({ result: "hit" }, hits);
        counter.inc({ result: "miss" }, misses);
      } catch (error) {
        onError(error);
      }
    },
  });
}

function metricsHandler(registry: Registry): RequestHandler {
  return async (req, raw) => {
    const res = raw as ServerResponse;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" });
      res.end("method not allowed\n");
      return;
    }
    const body = await registry.metrics();
    res.writeHead(200, { "content-type": registry.contentType });
    res.end(req.method === "HEAD" ? undefined : body);
  };
}
