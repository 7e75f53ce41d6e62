/**
 * Configuration: read raw from the environment, then validated into one typed object that is
 * passed down. A bad value stops the process with one line naming the variable (docs/decisions.md).
 */
export type Env = Record<string, string | undefined>;

export const DEVELOPMENT_JWT_SECRET = "development-secret-do-not-use-in-production";

export interface StorageConfig {
  endpoint: string;
  region: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  forcePathStyle: boolean;
  presignUploadExpirySeconds: number;
  presignDownloadExpirySeconds: number;
  maxFileSizeBytes: number;
  /** Where the bucket has S3 Object Lock, legal holds are mirrored onto bucket objects. */
  objectLock: boolean;
}

export interface RetentionConfig {
  tempUploadSeconds: number;
  failedUploadSeconds: number;
  supersededSeconds: number;
  importArtifactSeconds: number;
  sweepIntervalSeconds: number;
}

export interface WebhookConfig {
  /** Development: URLs that resolve to loopback, private or link-local addresses are allowed. */
  allowPrivateUrls: boolean;
  dispatchIntervalSeconds: number;
  retryInitialSeconds: number;
  retryTotalHours: number;
  requestTimeoutSeconds: number;
}

export interface Config {
  production: boolean;
  host: string;
  port: number;
  logLevel: string;
  databaseUrl: string;
  storage: StorageConfig;
  temporal: { address: string; namespace: string; taskQueue: string; uiUrl?: string };
  redisUrl?: string;
  auth: { jwksUrl?: string; hs256Secret?: string };
  retention: RetentionConfig;
  customFieldsCacheTtlSeconds: number;
  completeWaitTimeoutSeconds: number;
  /**
   * Scan limits: a worker that dies mid-scan is noticed after the heartbeat timeout. Images and
   * PDFs up to `inlineMaxBytes` are scanned inside complete (their checks read a bounded head
   * and tail); the rest by the scan activity.
   */
  scan: { timeoutSeconds: number; heartbeatTimeoutSeconds: number; inlineMaxBytes: number };
  worker: WorkerConfig;
  maxRequestBodyBytes: number;
  shutdownGraceSeconds: number;
  webhooks: WebhookConfig;
  /** OTLP/HTTP endpoint for traces; tracing is off without it. */
  otlpEndpoint?: string;
}

export interface WorkerConfig {
  /** Whether this worker creates the retention-sweep and webhook-dispatch schedules. */
  schedules: boolean;
  /** Test-only: fail each workflow task once after each lifecycle step (refused in production). */
  faultInjection: boolean;
  maxCachedWorkflows?: number;
  /**
   * Workflow tasks in progress at once. Kept low: a task accepted but not finished within the
   * 10 s workflow task timeout is timed out by the server and sent again while the worker still
   * works on it (sdk-core: "Trying to send a new WFT for a run which already has one"); tasks
   * that wait in the server's queue instead cost nothing.
   */
  maxConcurrentWorkflowTaskExecutions: number;
  maxConcurrentLocalActivityExecutions: number;
  maxConcurrentActivityTaskExecutions: number;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = "ConfigError";
  }
}

export function readEnv(): Env {
  return { ...process.env };
}

function required(env: Env, name: string): string {
  const value = env[name];
  if (value === undefined || value.trim() === "") throw new ConfigError(name, "is required");
  return value.trim();
}

function optional(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min = 1): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || !Number.isSafeInteger(value)) throw new ConfigError(name, `must be at least ${min}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = optional(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function url(env: Env, name: string, value: string, protocols: string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${value}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(" or ")}, got "${parsed.protocol}"`);
  }
  return value;
}

function parseStorage(env: Env): StorageConfig {
  return {
    endpoint: url(env, "STORAGE_ENDPOINT", required(env, "STORAGE_ENDPOINT"), ["http:", "https:"]),
    region: optional(env, "STORAGE_REGION") ?? "us-east-1",
    bucket: required(env, "STORAGE_BUCKET"),
    accessKey: required(env, "STORAGE_ACCESS_KEY"),
    secretKey: required(env, "STORAGE_SECRET_KEY"),
    forcePathStyle: boolean(env, "STORAGE_FORCE_PATH_STYLE", true),
    presignUploadExpirySeconds: integer(env, "STORAGE_PRESIGN_UPLOAD_EXPIRY_SECONDS", 300),
    presignDownloadExpirySeconds: integer(env, "STORAGE_PRESIGN_DOWNLOAD_EXPIRY_SECONDS", 900),
    maxFileSizeBytes: integer(env, "STORAGE_MAX_FILE_SIZE_BYTES", 52_428_800),
    objectLock: boolean(env, "STORAGE_OBJECT_LOCK", false),
  };
}

function parseRetention(env: Env): RetentionConfig {
  return {
    tempUploadSeconds: integer(env, "RETENTION_TEMP_UPLOAD_SECONDS", 24 * 3600),
    failedUploadSeconds: integer(env, "RETENTION_FAILED_UPLOAD_SECONDS", 7 * 24 * 3600),
    supersededSeconds: integer(env, "RETENTION_SUPERSEDED_SECONDS", 30 * 24 * 3600),
    importArtifactSeconds: integer(env, "RETENTION_IMPORT_ARTIFACT_SECONDS", 90 * 24 * 3600),
    sweepIntervalSeconds: integer(env, "SWEEP_INTERVAL_SECONDS", 3600),
  };
}

function parseAuth(env: Env, production: boolean): Config["auth"] {
  const jwksUrl = optional(env, "AUTH_JWKS_URL");
  const secret = optional(env, "AUTH_HS256_SECRET") ?? (production ? undefined : DEVELOPMENT_JWT_SECRET);
  if (jwksUrl) url(env, "AUTH_JWKS_URL", jwksUrl, ["http:", "https:"]);
  if (production && secret === DEVELOPMENT_JWT_SECRET) {
    throw new ConfigError("AUTH_HS256_SECRET", "the development secret is refused when NODE_ENV=production");
  }
  if (!jwksUrl && !secret) throw new ConfigError("AUTH_JWKS_URL", "is required when NODE_ENV=production");
  return { jwksUrl, hs256Secret: secret };
}

function parseWorker(env: Env, production: boolean): WorkerConfig {
  const faults = optional(env, "FAULT_INJECTION");
  if (faults !== undefined && faults !== "workflow-tasks") throw new ConfigError("FAULT_INJECTION", `must be "workflow-tasks", got "${faults}"`);
  if (faults && production) throw new ConfigError("FAULT_INJECTION", "is refused when NODE_ENV=production");
  const maybe = (name: string) => (optional(env, name) === undefined ? undefined : integer(env, name, 1));
  const workflowTasks = integer(env, "WORKER_MAX_CONCURRENT_WORKFLOW_TASKS", 8, 2);
  return {
    schedules: boolean(env, "WORKER_SCHEDULES", true),
    faultInjection: faults === "workflow-tasks",
    maxCachedWorkflows: maybe("WORKER_MAX_CACHED_WORKFLOWS"),
    maxConcurrentWorkflowTaskExecutions: workflowTasks,
    maxConcurrentLocalActivityExecutions: integer(env, "WORKER_MAX_CONCURRENT_LOCAL_ACTIVITIES", 2 * workflowTasks),
    maxConcurrentActivityTaskExecutions: integer(env, "WORKER_MAX_CONCURRENT_ACTIVITIES", 20),
  };
}

function parseWebhooks(env: Env, production: boolean): WebhookConfig {
  return {
    allowPrivateUrls: boolean(env, "WEBHOOK_ALLOW_PRIVATE_URLS", !production),
    dispatchIntervalSeconds: integer(env, "WEBHOOK_DISPATCH_INTERVAL_SECONDS", 5),
    retryInitialSeconds: integer(env, "WEBHOOK_RETRY_INITIAL_SECONDS", 30),
    retryTotalHours: integer(env, "WEBHOOK_RETRY_TOTAL_HOURS", 24),
    requestTimeoutSeconds: integer(env, "WEBHOOK_REQUEST_TIMEOUT_SECONDS", 10),
  };
}

export function parseConfig(env: Env): Config {
  const production = env.NODE_ENV === "production";
  const redisUrl = optional(env, "REDIS_URL");
  const otlpEndpoint = optional(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  return {
    production,
    host: optional(env, "HOST") ?? "127.0.0.1",
    port: integer(env, "PORT", 8080, 0),
    logLevel: optional(env, "LOG_LEVEL") ?? "info",
    databaseUrl: url(env, "DATABASE_URL", required(env, "DATABASE_URL"), ["postgres:", "postgresql:"]),
    storage: parseStorage(env),
    temporal: {
      address: required(env, "TEMPORAL_ADDRESS"),
      namespace: optional(env, "TEMPORAL_NAMESPACE") ?? "default",
      taskQueue: optional(env, "TEMPORAL_TASK_QUEUE") ?? "file-storage",
      uiUrl: optional(env, "TEMPORAL_UI_URL"),
    },
    redisUrl: redisUrl ? url(env, "REDIS_URL", redisUrl, ["redis:", "rediss:"]) : undefined,
    auth: parseAuth(env, production),
    retention: parseRetention(env),
    customFieldsCacheTtlSeconds: integer(env, "CUSTOM_FIELDS_CACHE_TTL_SECONDS", 3600),
    completeWaitTimeoutSeconds: integer(env, "COMPLETE_WAIT_TIMEOUT_SECONDS", 30),
    scan: {
      timeoutSeconds: integer(env, "SCAN_TIMEOUT_SECONDS", 600),
      heartbeatTimeoutSeconds: integer(env, "SCAN_HEARTBEAT_TIMEOUT_SECONDS", 30),
      inlineMaxBytes: integer(env, "SCAN_INLINE_MAX_BYTES", 16 * 1024 * 1024, 0),
    },
    worker: parseWorker(env, production),
    maxRequestBodyBytes: integer(env, "MAX_REQUEST_BODY_BYTES", 1_048_576),
    shutdownGraceSeconds: integer(env, "SHUTDOWN_GRACE_SECONDS", 20),
    webhooks: parseWebhooks(env, production),
    otlpEndpoint: otlpEndpoint ? url(env, "OTEL_EXPORTER_OTLP_ENDPOINT", otlpEndpoint, ["http:", "https:"]) : undefined,
  };
}

/** When a SCANNING object counts as stuck: the scan activity's whole budget plus a minute. */
export function scanDeadlineSeconds(config: Pick<Config, "scan">): number {
  return config.scan.timeoutSeconds + 60;
}
