/**
 * Prometheus metrics of the API process, served at GET /metrics.
 *
 * RPC counts and latencies are meters here, fed by src/rpc/interceptors/metrics-interceptor.ts; the
 * page is src/rpc/metrics-page.ts. Uploads and scans are not measured in this process: the
 * scan runs in the worker, a separate process (often many), which serves no HTTP. Rather than give
 * every worker a scrape port and sum them, the API reads what the worker already records in
 * PostgreSQL when it is scraped: live objects by status and those overdue in SCANNING, and over
 * the last 24 hours the scan outcomes, the failed checks (stored_objects.scan_result), the time
 * from the verified upload to the end of the scan (queue wait included: the latency a client sees)
 * and the webhook deliveries with their attempts. These are gauges of the
 * database, so every API replica reports the same values (aggregate with max, not sum), they
 * survive restarts, and they cost one round of aggregate queries per scrape
 * (src/adapters/postgres/metrics-queries.ts), shared by concurrent scrapes and cached for `cacheMs`.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { type AuditCheckpointState, registerAuditCheckpointGauges } from "./audit-checkpoint-gauges.js";
import { registerMalwareScannerGauges } from "./malware-scanner-gauges.js";

export interface CacheTotals {
  hits: number;
  misses: number;
}

export interface MetricsOptions {
  /** Reads what the database gauges show, from PostgreSQL. */
  readStore(): Promise<StoreSnapshot>;
  /** Hits and misses of the custom field definition cache, summed over tenants; without it the cache metric is left out. */
  cacheTotals?: () => Promise<CacheTotals>;
  /** How long one reading of the database serves scrapes; default 10 s. */
  cacheMs?: number;
  /** Audit entries per tenant; without it the audit gauge is left out. */
  auditEntriesByTenant?: () => Promise<Map<string, number>>;
  /** How long one count of the audit trail serves scrapes; default 5 min (a count reads a whole index). */
  auditCacheMs?: number;
  /** Heads and newest checkpoints of the tenants' audit chains; without it the checkpoint gauges are left out. */
  auditCheckpoints?: () => Promise<AuditCheckpointState[]>;
  /**
   * Whether the malware scanner answers (a ping); without it the scanner gauges are left out
   * (malware-scanner-gauges.ts). Asked at most once per `cacheMs`.
   */
  malwareScannerUp?: () => Promise<boolean>;
  /**
   * Multipart uploads the workers aborted, totals by who ended them (`deadline`, `sweep`), from
   * PostgreSQL: read at each scrape (a table of two rows); without it the metric is left out.
   */
  multipartAbortsByWorker?: () => Promise<{ by: string; count: number }[]>;
  /** Told when a source cannot be read; its metrics are then absent from that scrape. */
  onCollectError?: (error: unknown) => void;
  now?: () => number;
}

type RpcLabel = "service" | "method" | "code";

/** What an RPC records: its count and its duration, by service, method and final code. */
export interface RpcMeters {
  requests: Counter<RpcLabel>;
  durations: Histogram<RpcLabel>;
  /** Calls refused by a per-tenant quota (src/domain/quotas.ts), by quota. */
  quotaRefusals: Counter<"quota">;
}

/** Multipart uploads as the API drives them (the use cases' UploadMeters, src/app/files/deps.ts). */
export interface UploadCounters {
  partsSigned(count: number): void;
  uploadResumed(): void;
  multipartAborted(count: number, by: "client" | "deadline" | "sweep"): void;
}

export interface Metrics {
  registry: Registry;
  rpc: RpcMeters;
  uploads: UploadCounters;
}

const RPC_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The database gauges at one reading; `scansOverdue` counts objects SCANNING past their deadline. */
export interface StoreSnapshot {
  objectsByStatus: { status: string; count: number }[];
  scansByResult: { result: string; count: number }[];
  failuresByCheck: { check: string; reason: string; count: number }[];
  scanSeconds: { quantile: number; seconds: number }[];
  webhookDeliveries: { status: string; count: number; attempts: number }[];
  scansOverdue: number;
  /** Deleted rows whose storage delete failed in a sweep run: still retried, or given up on. */
  storageDeletesFailing?: { state: "retrying" | "abandoned"; count: number }[];
  /** Webhook deliveries not started yet, by what holds them back (the fair share of the worker). */
  webhookDeliveriesWaiting?: { held: WebhookHold; count: number }[];
}

export type WebhookHold = "tenant_share" | "endpoint_share" | "none";

/** A registry of its own per call: nothing is global, so tests and processes never share one. */
export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ["service", "method", "code"] as const;
  const requests = new Counter({ name: "rpc_requests_total", help: "RPCs handled, on every transport (REST included), by final code", labelNames, registers: [registry] });
  const durations = new Histogram({ name: "rpc_request_duration_seconds", help: "Time to the RPC's response or error", labelNames, buckets: RPC_BUCKETS, registers: [registry] });
  const quotaRefusals = new Counter({ name: "quota_refusals_total", help: "Calls refused because the tenant's quota was full, by quota", labelNames: ["quota"], registers: [registry] });
  const now = options.now ?? Date.now;
  const store = cachedReader(options.readStore, options.cacheMs ?? 10_000, now, options.onCollectError);
  registerStoreGauges(registry, store);
  if (options.malwareScannerUp) {
    const scanning = async () => {
      const snapshot = await store();
      return snapshot && (snapshot.objectsByStatus.find((row) => row.status === "SCANNING")?.count ?? 0);
    };
    registerMalwareScannerGauges(registry, cachedReader(options.malwareScannerUp, options.cacheMs ?? 10_000, now), scanning);
  }
  if (options.auditEntriesByTenant) {
    registerAuditGauge(registry, cachedReader(options.auditEntriesByTenant, options.auditCacheMs ?? 300_000, now, options.onCollectError));
  }
  if (options.auditCheckpoints) {
    registerAuditCheckpointGauges(registry, cachedReader(options.auditCheckpoints, options.cacheMs ?? 10_000, now, options.onCollectError));
  }
  if (options.multipartAbortsByWorker) registerWorkerAbortCounter(registry, cachedReader(options.multipartAbortsByWorker, 0, now, options.onCollectError));
  if (options.cacheTotals) registerCacheCounter(registry, options.cacheTotals, options.onCollectError ?? (() => undefined));
  return { registry, rpc: { requests, durations, quotaRefusals }, uploads: uploadCounters(registry) };
}

function uploadCounters(registry: Registry): UploadCounters {
  const signed = new Counter({ name: "upload_parts_signed_total", help: "UploadPart URLs signed for multipart uploads (a part signed again counts again)", registers: [registry] });
  const resumed = new Counter({
    name: "uploads_resumed_total",
    help: "ListUploadedParts calls that found parts already in storage: a client resuming a multipart upload",
    registers: [registry],
  });
  const aborted = new Counter({
    name: "multipart_uploads_aborted_total",
    help: "Incomplete multipart uploads aborted in storage by this process, by who ended them",
    labelNames: ["by"],
    registers: [registry],
  });
  return {
    partsSigned: (count) => signed.inc(count),
    uploadResumed: () => resumed.inc(),
    multipartAborted: (count, by) => {
      if (count > 0) aborted.inc({ by }, count);
    },
  };
}

/**
 * The workers' multipart aborts: totals kept in PostgreSQL, so every API replica reports the same
 * values (aggregate with max) and they survive restarts. A counter: the totals only grow.
 */
function registerWorkerAbortCounter(registry: Registry, read: () => Promise<{ by: string; count: number }[] | undefined>): void {
  const metric: Counter<"by"> = new Counter({
    name: "multipart_uploads_aborted_by_worker_total",
    help: "Incomplete multipart uploads the workers aborted in storage, by who ended them (deadline: the object's workflow; sweep), from PostgreSQL",
    labelNames: ["by"],
    registers: [registry],
    async collect() {
      const totals = await read();
      metric.reset();
      for (const by of ["deadline", "sweep"]) metric.inc({ by }, 0);
      for (const row of totals ?? []) metric.inc({ by: row.by }, row.count);
    },
  });
}

/** One reading at a time, reused for `cacheMs`; a failed reading is not cached. */
function cachedReader<T>(read: () => Promise<T>, cacheMs: number, now: () => number, onError?: (error: unknown) => void): () => Promise<T | undefined> {
  let cached: { at: number; value: Promise<T> } | undefined;
  return async () => {
    if (!cached || now() - cached.at >= cacheMs) {
      const value = read();
      cached = { at: now(), value };
      value.catch(() => (cached = undefined));
    }
    try {
      return await cached.value;
    } catch (error) {
      onError?.(error);
      return undefined;
    }
  };
}

/** The audit trail never shrinks (entries outlive their objects): its growth, per tenant. */
function registerAuditGauge(registry: Registry, read: () => Promise<Map<string, number> | undefined>): void {
  const metric: Gauge<string> = new Gauge({
    name: "audit_entries",
    help: "Audit entries kept, per tenant (counted at most every few minutes), from PostgreSQL",
    labelNames: ["tenant"],
    registers: [registry],
    async collect() {
      const counts = await read();
      metric.reset();
      for (const [tenant, count] of counts ?? []) metric.set({ tenant }, count);
    },
  });
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
    for (const status of ["PENDING_UPLOAD", "SCANNING", "READY", "REJECTED", "QUARANTINED"]) g.set({ status }, 0);
    for (const row of s.objectsByStatus) g.set({ status: row.status }, row.count);
  });
  gauge("scans_overdue", "Objects still SCANNING past their scan deadline; the retention sweep re-drives their workflows", [], (g, s) => {
    g.set(s.scansOverdue);
  });
  gauge("storage_deletes_failing", "Deleted objects whose bucket object could not be removed: retried each sweep run, or abandoned after SWEEP_STORAGE_DELETE_MAX_FAILED_RUNS (an operator's turn)", ["state"], (g, s) => {
    for (const state of ["retrying", "abandoned"]) g.set({ state }, 0);
    for (const row of s.storageDeletesFailing ?? []) g.set({ state: row.state }, row.count);
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
  gauge(
    "webhook_deliveries_waiting",
    "Webhook deliveries not started yet, by what holds them: their tenant's or endpoint's share of the webhook worker in flight (WEBHOOK_MAX_IN_FLIGHT_PER_*), or none",
    ["held"],
    (g, s) => {
      for (const held of ["tenant_share", "endpoint_share", "none"]) g.set({ held }, 0);
      for (const row of s.webhookDeliveriesWaiting ?? []) g.set({ held: row.held }, row.count);
    },
  );
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
