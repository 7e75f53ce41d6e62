/**
 * Configuration: read raw from the environment, then validated into one typed object that is
 * passed down. A bad value stops the process with one line naming the variable (docs/decisions.md).
 */
import { createHash } from "node:crypto";
import { type AuditConfig, parseAuditSigningKeys } from "./config/audit.js";
import { parseAuditHashChain } from "./config/audit-hash-chain.js";
import { ConfigError } from "./config/config-error.js";
import { type ClamdConfig, parseClamd } from "./config/malware-scanner.js";
import { DEFAULT_MAX_DEFINITIONS_PER_ENTITY_TYPE } from "./domain/customfields/definition-quota.js";
import { defaultTenantShare } from "./domain/webhooks/fair-share.js";

export type Env = Record<string, string | undefined>;

export const DEVELOPMENT_JWT_SECRET = "development-secret-do-not-use-in-production";
/** The issuer and audience development tokens carry (src/rpc/dev-token.ts). */
export const DEVELOPMENT_TOKEN_ISSUER = "files-and-fields-development";
export const DEVELOPMENT_TOKEN_AUDIENCE = "files-and-fields-development";
/** RFC 7518 §3.2: an HS256 key at least as long as the hash output. */
const MIN_HS256_SECRET_BYTES = 32;

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
  /** Objects of one tenant in PENDING_UPLOAD at once; the next initiate is refused. */
  maxPendingUploadsPerTenant: number;
  /** Where the bucket has S3 Object Lock, legal holds are mirrored onto bucket objects. */
  objectLock: boolean;
  /** The S3 client gives up instead of hanging: on connecting, on the answer, on a silent socket. */
  connectTimeoutSeconds: number;
  requestTimeoutSeconds: number;
  socketIdleTimeoutSeconds: number;
  maxSockets: number;
  maxAttempts: number;
}

/**
 * Expression indexes of `indexed` custom fields: each one an index on a table all tenants share,
 * so a tenant has only so many; the worker builds them one at a time (src/adapters/postgres/
 * custom-field-index-builder.ts), looking for work every `buildIntervalSeconds`.
 */
export interface CustomFieldIndexConfig {
  maxIndexedFieldsPerTenant: number;
  buildIntervalSeconds: number;
}

export interface RetentionConfig {
  tempUploadSeconds: number;
  failedUploadSeconds: number;
  supersededSeconds: number;
  importArtifactSeconds: number;
  sweepIntervalSeconds: number;
  /** Rows per sweep activity, and batches per phase and run: a run's bound is their product. */
  sweepBatchSize: number;
  sweepMaxBatches: number;
  /** Sweep runs a storage delete may fail in before the sweep gives up on it (audited, gauged). */
  storageDeleteMaxFailedRuns: number;
}

export interface WebhookConfig {
  /** Development: URLs that resolve to loopback, private or link-local addresses are allowed. */
  allowPrivateUrls: boolean;
  dispatchIntervalSeconds: number;
  retryInitialSeconds: number;
  retryTotalHours: number;
  requestTimeoutSeconds: number;
  /** Endpoints one tenant may register; the next create is refused. */
  maxEndpointsPerTenant: number;
  /** Delivery workflows started and not yet ended per endpoint; the rest wait in the outbox. */
  maxInFlightPerEndpoint: number;
  /** The same per tenant, its fair share of the webhook worker's slots; default a quarter of them. */
  maxInFlightPerTenant: number;
  /** Deliveries and the dispatcher run here, on a worker of their own, never beside scans. */
  taskQueue: string;
  maxConcurrentActivities: number;
  maxConcurrentWorkflowTasks: number;
  /** Not configured on their own: derived from the two above by the main worker's default rules. */
  workflowTaskPollers: PollerSettings;
  activityTaskPollers: PollerSettings;
  /** After a rotation, deliveries are signed with the old secret too for this long. */
  secretOverlapSeconds: number;
  secretKeys: WebhookSecretKeys;
}

/** AES-256-GCM keys of the secrets at rest: `current` encrypts, every one decrypts. */
export interface WebhookSecretKeys {
  current: Buffer;
  previous: Buffer[];
  /** No key was configured: the key derived from a constant is in use (development mode only). */
  derived: boolean;
}

export interface AuthConfig {
  jwksUrl?: string;
  hs256Secret?: string;
  /** `iss` and `aud` are checked when set; development mode sets them to the development token's. */
  issuer?: string;
  audience?: string;
  /** Leeway for `exp` (always required) and `nbf` against clock drift between issuer and API. */
  clockToleranceSeconds: number;
}

/** The listener of /metrics and the detailed /readyz: apart from the API port, loopback by default. */
export interface MetricsConfig {
  host: string;
  /** 0: any free port (logged at start). */
  port: number;
}

/**
 * Bounds on the API's connections, so that slow or silent clients cannot hold them (slow-loris):
 * src/rpc/http-server.ts applies them to HTTP/1.1 and HTTP/2 alike where both have the notion.
 */
export interface HttpLimitsConfig {
  /** A connection that has not sent its first byte by then is closed. */
  firstByteTimeoutSeconds: number;
  /** HTTP/1.1: the request line and headers must have arrived by then. */
  headersTimeoutSeconds: number;
  /** The whole request (headers and body) must have arrived by then; answers may take longer. */
  requestTimeoutSeconds: number;
  /** HTTP/1.1: an idle keep-alive connection between calls. */
  keepAliveTimeoutSeconds: number;
  /** No byte either way while a call is open (a reader that stopped reading a stream). */
  idleTimeoutSeconds: number;
  maxConnections: number;
  /** HTTP/1.1 header bytes; for HTTP/2 the SETTINGS_MAX_HEADER_LIST_SIZE. */
  maxHeaderBytes: number;
  http2: {
    /** A session without open streams is closed (GOAWAY) after this long. */
    sessionIdleTimeoutSeconds: number;
    /** The client must acknowledge the server's SETTINGS by then (RFC 9113 §6.5.3). */
    settingsTimeoutSeconds: number;
    /** A session with open streams, all quiet, is sent a PING this often (src/rpc/http2-pings.ts)... */
    pingIntervalSeconds: number;
    /** ...and closed when one is not answered by then: a quiet call lasts as long as its client. */
    pingTimeoutSeconds: number;
    maxConcurrentStreams: number;
    maxSessionMemoryMegabytes: number;
  };
}

/** PostgreSQL: no statement or forgotten transaction holds a pooled connection for long. */
export interface DatabaseLimitsConfig {
  statementTimeoutSeconds: number;
  idleInTransactionTimeoutSeconds: number;
  /** Connections per process (API or worker): replicas × this must stay under the server's max_connections. */
  poolMax: number;
  /** AUDIT_HASH_CHAIN: off only for the benchmark (src/config/audit-hash-chain.ts); a session setting of both pools. */
  auditHashChain: boolean;
}

export interface Config {
  /**
   * DEVELOPMENT_MODE=true, the one switch for development shortcuts (the development HS256 secret,
   * the demo pages and their token endpoint, private webhook URLs, FAULT_INJECTION, plain-http JWKS
   * on loopback). Off by default; NODE_ENV changes nothing.
   */
  developmentMode: boolean;
  host: string;
  port: number;
  metrics: MetricsConfig;
  logLevel: string;
  /** LOG_FORMAT: `json` or `pretty`; unset, the logger picks (pretty on a terminal). */
  logFormat?: "json" | "pretty";
  databaseUrl: string;
  storage: StorageConfig;
  temporal: { address: string; namespace: string; taskQueue: string; uiUrl?: string };
  redisUrl?: string;
  auth: AuthConfig;
  retention: RetentionConfig;
  customFieldsCacheTtlSeconds: number;
  /** Bounds on tenants' patterns and formulas (src/domain/customfields/limits.ts has the same shape). */
  customFieldLimits: CustomFieldLimitsConfig;
  customFieldIndexes: CustomFieldIndexConfig;
  /** Live definitions one tenant may have per entity type; the next create is refused. */
  customFieldDefinitions: { maxPerEntityType: number };
  completeWaitTimeoutSeconds: number;
  /**
   * Scan limits: a worker that dies mid-scan is noticed after the heartbeat timeout. Images and
   * PDFs up to `inlineMaxBytes` are scanned inside complete (their checks read a bounded head
   * and tail, or stream a file that size bounds); the rest by the scan activity. An XLSX whose
   * parts declare or inflate to more than `officeMaxUncompressedBytes`, or more than
   * `officeMaxExpansionRatio` times its own size, is refused (a ZIP bomb for the importer). A PDF
   * object stream that inflates past `pdfMaxObjectStreamBytes`, or object streams that together
   * pass `pdfMaxInflatedBytes`, refuse the PDF (their objects could not all be checked). An
   * SVG larger than `svgMaxBytes`, nested deeper than `svgMaxDepth`, with more than
   * `svgMaxElements` elements or with CSS longer than `svgMaxCssChars` in one style element or
   * attribute is refused (its scan then stays linear, in short synchronous steps).
   */
  scan: {
    timeoutSeconds: number;
    heartbeatTimeoutSeconds: number;
    inlineMaxBytes: number;
    officeMaxExpansionRatio: number;
    officeMaxUncompressedBytes: number;
    pdfMaxObjectStreamBytes: number;
    pdfMaxInflatedBytes: number;
    svgMaxBytes: number;
    svgMaxDepth: number;
    svgMaxElements: number;
    svgMaxCssChars: number;
  };
  worker: WorkerConfig;
  maxRequestBodyBytes: number;
  shutdownGraceSeconds: number;
  http: HttpLimitsConfig;
  database: DatabaseLimitsConfig;
  webhooks: WebhookConfig;
  /**
   * gRPC server reflection needs a token unless `public`; public, each client address may send
   * `publicRequestsPerMinute` reflection requests a minute (a burst of as many, then refilled).
   */
  reflection: { public: boolean; publicRequestsPerMinute: number };
  /** OTLP/HTTP endpoint for traces; tracing is off without it. */
  otlpEndpoint?: string;
  /** Signed checkpoints of the audit hash chain (src/config/audit.ts). */
  audit: AuditConfig;
  /** The clamd the malware scan streams to (src/config/malware-scanner.ts); unset, none. */
  clamd?: ClamdConfig;
}

export interface WorkerConfig {
  /** Whether this worker creates the retention-sweep and webhook-dispatch schedules. */
  schedules: boolean;
  /** Test-only: fail each workflow task once after each lifecycle step (development mode only). */
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
  /** Long polls (src/adapters/temporal/worker-pollers.ts). */
  workflowTaskPollers: PollerSettings;
  activityTaskPollers: PollerSettings;
}

/**
 * Polls held open. Autoscaling: never fewer than `minimum`, `initial` until the server suggests
 * scaling (a server that never does keeps `initial`), never more than `maximum`, on each workflow
 * queue (the normal one every upload's first task arrives on, and the sticky one). Otherwise a
 * simple maximum of `maximum` polls, which sdk-core splits a fifth to the normal queue.
 */
export interface PollerSettings {
  autoscaling: boolean;
  minimum: number;
  initial: number;
  maximum: number;
}

export { ConfigError };

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

function logFormat(env: Env): "json" | "pretty" | undefined {
  const raw = optional(env, "LOG_FORMAT")?.toLowerCase();
  if (raw === undefined || raw === "json" || raw === "pretty") return raw;
  throw new ConfigError("LOG_FORMAT", `must be json or pretty, got "${raw}"`);
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
    maxPendingUploadsPerTenant: integer(env, "STORAGE_MAX_PENDING_UPLOADS_PER_TENANT", 1000),
    objectLock: boolean(env, "STORAGE_OBJECT_LOCK", false),
    connectTimeoutSeconds: integer(env, "STORAGE_CONNECT_TIMEOUT_SECONDS", 5),
    requestTimeoutSeconds: integer(env, "STORAGE_REQUEST_TIMEOUT_SECONDS", 30),
    socketIdleTimeoutSeconds: integer(env, "STORAGE_SOCKET_IDLE_TIMEOUT_SECONDS", 30),
    maxSockets: integer(env, "STORAGE_MAX_SOCKETS", 50),
    maxAttempts: integer(env, "STORAGE_MAX_ATTEMPTS", 2),
  };
}

function parseRetention(env: Env): RetentionConfig {
  return {
    tempUploadSeconds: integer(env, "RETENTION_TEMP_UPLOAD_SECONDS", 24 * 3600),
    failedUploadSeconds: integer(env, "RETENTION_FAILED_UPLOAD_SECONDS", 7 * 24 * 3600),
    supersededSeconds: integer(env, "RETENTION_SUPERSEDED_SECONDS", 30 * 24 * 3600),
    importArtifactSeconds: integer(env, "RETENTION_IMPORT_ARTIFACT_SECONDS", 90 * 24 * 3600),
    sweepIntervalSeconds: integer(env, "SWEEP_INTERVAL_SECONDS", 3600),
    sweepBatchSize: integer(env, "SWEEP_BATCH_SIZE", 100),
    sweepMaxBatches: integer(env, "SWEEP_MAX_BATCHES", 100),
    storageDeleteMaxFailedRuns: integer(env, "SWEEP_STORAGE_DELETE_MAX_FAILED_RUNS", 24),
  };
}

/** The one place that decides whether development shortcuts are on (Config.developmentMode). */
export function isDevelopmentMode(env: Env): boolean {
  return boolean(env, "DEVELOPMENT_MODE", false);
}

const isLoopbackHost = (host: string) => host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/**
 * Development mode hands out all-permission tokens at /demo/token: on an address other machines
 * reach, anyone on the network is an administrator of every tenant. So it binds to loopback
 * only, unless DEVELOPMENT_MODE_ALLOW_NON_LOOPBACK=true says that exposure is meant (a throwaway
 * VM, a container whose port only the host publishes).
 */
function listenHost(env: Env, developmentMode: boolean): string {
  const host = optional(env, "HOST") ?? "127.0.0.1";
  if (!developmentMode || isLoopbackHost(host) || host === "::1") return host;
  if (boolean(env, "DEVELOPMENT_MODE_ALLOW_NON_LOOPBACK", false)) return host;
  throw new ConfigError(
    "HOST",
    `is ${host}, not a loopback address, and DEVELOPMENT_MODE=true serves all-permission tokens to anyone who reaches it; bind to 127.0.0.1 or set DEVELOPMENT_MODE_ALLOW_NON_LOOPBACK=true`,
  );
}

/** Keys fetched over plain http could be swapped by anyone on the path: https, bar a local test issuer. */
function jwksUrl(env: Env, developmentMode: boolean): string | undefined {
  const value = optional(env, "AUTH_JWKS_URL");
  if (value === undefined) return undefined;
  url(env, "AUTH_JWKS_URL", value, ["http:", "https:"]);
  const parsed = new URL(value);
  if (parsed.protocol === "http:" && !(developmentMode && isLoopbackHost(parsed.hostname))) {
    throw new ConfigError("AUTH_JWKS_URL", "must use https: (http: only for a loopback host with DEVELOPMENT_MODE=true)");
  }
  return value;
}

/** Exported for the token tools (src/cli/dev-token-from-env.ts): they sign what the API verifies. */
export function parseAuth(env: Env, developmentMode: boolean): AuthConfig {
  const jwks = jwksUrl(env, developmentMode);
  const secret = optional(env, "AUTH_HS256_SECRET") ?? (developmentMode && !jwks ? DEVELOPMENT_JWT_SECRET : undefined);
  if (secret === DEVELOPMENT_JWT_SECRET && !developmentMode) {
    throw new ConfigError("AUTH_HS256_SECRET", "the development secret is refused without DEVELOPMENT_MODE=true");
  }
  if (secret !== undefined && new TextEncoder().encode(secret).length < MIN_HS256_SECRET_BYTES) {
    throw new ConfigError("AUTH_HS256_SECRET", `must be at least ${MIN_HS256_SECRET_BYTES} bytes`);
  }
  if (!jwks && !secret) throw new ConfigError("AUTH_JWKS_URL", "is required, or AUTH_HS256_SECRET (DEVELOPMENT_MODE=true uses a development secret)");
  const developmentSecret = secret === DEVELOPMENT_JWT_SECRET;
  const issuer = optional(env, "AUTH_ISSUER") ?? (developmentSecret ? DEVELOPMENT_TOKEN_ISSUER : undefined);
  const audience = optional(env, "AUTH_AUDIENCE") ?? (developmentSecret ? DEVELOPMENT_TOKEN_AUDIENCE : undefined);
  // A token minted by the same identity provider for another service must not open this one.
  for (const [name, value] of [["AUTH_ISSUER", issuer], ["AUTH_AUDIENCE", audience]] as const) {
    if (value === undefined && !developmentMode) throw new ConfigError(name, "is required without DEVELOPMENT_MODE=true (every token must name it)");
  }
  return { jwksUrl: jwks, hs256Secret: secret, issuer, audience, clockToleranceSeconds: integer(env, "AUTH_CLOCK_TOLERANCE_SECONDS", 30, 0) };
}

function parseWorker(env: Env, developmentMode: boolean): WorkerConfig {
  const faults = optional(env, "FAULT_INJECTION");
  if (faults !== undefined && faults !== "workflow-tasks") throw new ConfigError("FAULT_INJECTION", `must be "workflow-tasks", got "${faults}"`);
  if (faults && !developmentMode) throw new ConfigError("FAULT_INJECTION", "is refused without DEVELOPMENT_MODE=true");
  const maybe = (name: string) => (optional(env, name) === undefined ? undefined : integer(env, name, 1));
  const workflowTasks = integer(env, "WORKER_MAX_CONCURRENT_WORKFLOW_TASKS", 8, 2);
  const activities = integer(env, "WORKER_MAX_CONCURRENT_ACTIVITIES", 20);
  return {
    schedules: boolean(env, "WORKER_SCHEDULES", true),
    faultInjection: faults === "workflow-tasks",
    maxCachedWorkflows: maybe("WORKER_MAX_CACHED_WORKFLOWS"),
    maxConcurrentWorkflowTaskExecutions: workflowTasks,
    maxConcurrentLocalActivityExecutions: integer(env, "WORKER_MAX_CONCURRENT_LOCAL_ACTIVITIES", 2 * workflowTasks),
    maxConcurrentActivityTaskExecutions: activities,
    workflowTaskPollers: pollers(env, "WORKER_WORKFLOW_TASK_POLLERS", "WORKER_MAX_WORKFLOW_TASK_POLLS", workflowTasks, workflowPollerDefaults(workflowTasks)),
    activityTaskPollers: pollers(env, "WORKER_ACTIVITY_TASK_POLLERS", "WORKER_MAX_ACTIVITY_TASK_POLLS", activities, activityPollerDefaults(activities)),
  };
}

/**
 * Workflow tasks: a simple maximum by default. Autoscaling (two polls at least on the normal
 * queue, half the slots each to start) dispatched new uploads faster on an idle worker, but under
 * 200 concurrent uploads on two cores it took first workflow tasks the worker could not finish
 * within the 10 s task timeout, and sdk-core then logged "Trying to send a new WFT for a run which
 * already has one" (load.test.ts on the real server): tasks waiting in the server's queue cost
 * nothing, tasks waiting in a saturated worker time out. So it is opt-in until measured per host.
 */
const workflowPollerDefaults = (slots: number) => ({ autoscaling: false, minimum: 2, initial: Math.floor(slots / 2) });
/** Autoscaling from as many as the SDK's fixed default, min(10, slots); activities have no task timeout of that kind. */
const activityPollerDefaults = (slots: number) => ({ autoscaling: true, minimum: 1, initial: Math.min(10, slots) });

type PollerDefaults = ReturnType<typeof workflowPollerDefaults>;

/** What `pollers` gives when nothing is configured: the defaults, within `slots`. */
function derivedPollers(slots: number, defaults: PollerDefaults): PollerSettings {
  const minimum = Math.min(defaults.minimum, slots);
  return { autoscaling: defaults.autoscaling, minimum, initial: Math.min(Math.max(defaults.initial, minimum), slots), maximum: slots };
}

/**
 * `${prefix}_MIN`, `_INITIAL` and `_MAX`, at most `slots`: each poll holds a slot while it waits.
 * `retired` is refused rather than ignored: @temporalio/worker 1.24 never read it, and whoever
 * set it expects it to matter.
 */
function pollers(env: Env, prefix: string, retired: string, slots: number, defaults: PollerDefaults): PollerSettings {
  if (optional(env, retired) !== undefined) throw new ConfigError(retired, `is no longer read (it never reached the SDK); use ${prefix}_MIN, _INITIAL and _MAX`);
  const minimum = integer(env, `${prefix}_MIN`, Math.min(defaults.minimum, slots));
  const maximum = integer(env, `${prefix}_MAX`, slots);
  const initial = integer(env, `${prefix}_INITIAL`, Math.min(Math.max(defaults.initial, minimum), maximum));
  if (maximum > slots) throw new ConfigError(`${prefix}_MAX`, `must be at most the matching concurrent executions (${slots})`);
  if (minimum > maximum) throw new ConfigError(`${prefix}_MIN`, `must be at most ${prefix}_MAX (${maximum})`);
  if (initial < minimum || initial > maximum) throw new ConfigError(`${prefix}_INITIAL`, `must be between ${prefix}_MIN (${minimum}) and ${prefix}_MAX (${maximum})`);
  return { autoscaling: boolean(env, `${prefix}_AUTOSCALING`, defaults.autoscaling), minimum, initial, maximum };
}

function parseWebhooks(env: Env, developmentMode: boolean, mainTaskQueue: string): WebhookConfig {
  const maxConcurrentActivities = integer(env, "WEBHOOK_WORKER_MAX_CONCURRENT_ACTIVITIES", 20);
  const maxConcurrentWorkflowTasks = integer(env, "WEBHOOK_WORKER_MAX_CONCURRENT_WORKFLOW_TASKS", 4, 2);
  return {
    allowPrivateUrls: boolean(env, "WEBHOOK_ALLOW_PRIVATE_URLS", developmentMode),
    dispatchIntervalSeconds: integer(env, "WEBHOOK_DISPATCH_INTERVAL_SECONDS", 5),
    retryInitialSeconds: integer(env, "WEBHOOK_RETRY_INITIAL_SECONDS", 30),
    retryTotalHours: integer(env, "WEBHOOK_RETRY_TOTAL_HOURS", 24),
    requestTimeoutSeconds: integer(env, "WEBHOOK_REQUEST_TIMEOUT_SECONDS", 10),
    maxEndpointsPerTenant: integer(env, "WEBHOOK_MAX_ENDPOINTS_PER_TENANT", 10),
    maxInFlightPerEndpoint: integer(env, "WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT", 10),
    maxInFlightPerTenant: integer(env, "WEBHOOK_MAX_IN_FLIGHT_PER_TENANT", defaultTenantShare(maxConcurrentActivities)),
    taskQueue: optional(env, "WEBHOOK_TASK_QUEUE") ?? `${mainTaskQueue}-webhooks`,
    maxConcurrentActivities,
    maxConcurrentWorkflowTasks,
    workflowTaskPollers: derivedPollers(maxConcurrentWorkflowTasks, workflowPollerDefaults(maxConcurrentWorkflowTasks)),
    activityTaskPollers: derivedPollers(maxConcurrentActivities, activityPollerDefaults(maxConcurrentActivities)),
    secretOverlapSeconds: integer(env, "WEBHOOK_SECRET_OVERLAP_SECONDS", 24 * 3600, 0),
    secretKeys: parseWebhookSecretKeys(env, developmentMode),
  };
}

/** Development mode only: anyone with the source can decrypt what this key encrypted. */
const DEVELOPMENT_WEBHOOK_SECRET_KEY = createHash("sha256").update("files-and-fields development webhook secret key").digest();

function secretKey(name: string, raw: string): Buffer {
  const key = Buffer.from(raw, "base64");
  if (key.length !== 32 || key.toString("base64") !== raw) throw new ConfigError(name, "must be 32 bytes in base64 (openssl rand -base64 32)");
  return key;
}

const keyList = (name: string, raw: string | undefined) =>
  (raw ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k !== "")
    .map((k) => secretKey(name, k));

/**
 * The keyring: `WEBHOOK_SECRET_KEYS` (comma-separated, the first encrypts, every one decrypts),
 * or the older pair `WEBHOOK_SECRET_KEY` (encrypts) and `WEBHOOK_SECRET_PREVIOUS_KEYS` (decrypt
 * only). Each ciphertext names its key by an id derived from the key itself, so no id is
 * configured and none can be given to two keys. Exported for `npm run migrate` and
 * `npm run webhooks:reencrypt-secrets`.
 */
export function parseWebhookSecretKeys(env: Env, developmentMode: boolean): WebhookSecretKeys {
  const ring = optional(env, "WEBHOOK_SECRET_KEYS");
  const raw = optional(env, "WEBHOOK_SECRET_KEY");
  const previousRaw = optional(env, "WEBHOOK_SECRET_PREVIOUS_KEYS");
  if (ring !== undefined) {
    if (raw !== undefined || previousRaw !== undefined) {
      throw new ConfigError("WEBHOOK_SECRET_KEYS", "replaces WEBHOOK_SECRET_KEY and WEBHOOK_SECRET_PREVIOUS_KEYS: set one form only");
    }
    const [current, ...older] = keyList("WEBHOOK_SECRET_KEYS", ring);
    if (!current) throw new ConfigError("WEBHOOK_SECRET_KEYS", "names no key");
    return { current, previous: older, derived: false };
  }
  if (raw === undefined && !developmentMode) throw new ConfigError("WEBHOOK_SECRET_KEY", "is required, or WEBHOOK_SECRET_KEYS (DEVELOPMENT_MODE=true uses a development key)");
  const previous = keyList("WEBHOOK_SECRET_PREVIOUS_KEYS", previousRaw);
  if (raw === undefined) return { current: DEVELOPMENT_WEBHOOK_SECRET_KEY, previous, derived: true };
  return { current: secretKey("WEBHOOK_SECRET_KEY", raw), previous, derived: false };
}

/** `completeWaitSeconds`: the longest quiet call (CompleteUpload waiting for its scan) must fit in the idle bound. */
export function parseHttpLimits(env: Env, completeWaitSeconds: number): HttpLimitsConfig {
  const headersTimeoutSeconds = integer(env, "HTTP_HEADERS_TIMEOUT_SECONDS", 15);
  const requestTimeoutSeconds = integer(env, "HTTP_REQUEST_TIMEOUT_SECONDS", 60);
  if (requestTimeoutSeconds < headersTimeoutSeconds) throw new ConfigError("HTTP_REQUEST_TIMEOUT_SECONDS", "must be at least HTTP_HEADERS_TIMEOUT_SECONDS");
  const idleTimeoutSeconds = integer(env, "HTTP_IDLE_TIMEOUT_SECONDS", 120);
  if (idleTimeoutSeconds <= completeWaitSeconds) throw new ConfigError("HTTP_IDLE_TIMEOUT_SECONDS", "must be longer than COMPLETE_WAIT_TIMEOUT_SECONDS");
  return {
    firstByteTimeoutSeconds: integer(env, "HTTP_FIRST_BYTE_TIMEOUT_SECONDS", 10),
    headersTimeoutSeconds,
    requestTimeoutSeconds,
    keepAliveTimeoutSeconds: integer(env, "HTTP_KEEP_ALIVE_TIMEOUT_SECONDS", 5),
    idleTimeoutSeconds,
    maxConnections: integer(env, "HTTP_MAX_CONNECTIONS", 4096),
    maxHeaderBytes: integer(env, "HTTP_MAX_HEADER_BYTES", 16_384, 1024),
    http2: {
      sessionIdleTimeoutSeconds: integer(env, "HTTP2_SESSION_IDLE_TIMEOUT_SECONDS", 60),
      settingsTimeoutSeconds: integer(env, "HTTP2_SETTINGS_TIMEOUT_SECONDS", 10),
      pingIntervalSeconds: integer(env, "HTTP2_PING_INTERVAL_SECONDS", 30),
      pingTimeoutSeconds: integer(env, "HTTP2_PING_TIMEOUT_SECONDS", 10),
      maxConcurrentStreams: integer(env, "HTTP2_MAX_CONCURRENT_STREAMS", 100),
      maxSessionMemoryMegabytes: integer(env, "HTTP2_MAX_SESSION_MEMORY_MB", 10),
    },
  };
}

function parseDatabaseLimits(env: Env, developmentMode: boolean): DatabaseLimitsConfig {
  return {
    statementTimeoutSeconds: integer(env, "DATABASE_STATEMENT_TIMEOUT_SECONDS", 30),
    idleInTransactionTimeoutSeconds: integer(env, "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS", 60),
    poolMax: integer(env, "DATABASE_POOL_MAX", 10),
    auditHashChain: parseAuditHashChain(env, developmentMode),
  };
}

/**
 * re2-wasm's heap is a fixed 16 MiB for the process (about 11.2 MiB free): one compilation at
 * its peak plus the cache must leave room for RE2's matching caches. Cache costs are upper bounds
 * of what a compiled pattern keeps, from its compile estimate and program size
 * (src/domain/customfields/pattern-cost.ts, pattern-program.ts).
 */
export interface CustomFieldLimitsConfig {
  patterns: {
    maxLength: number;
    maxCompileBytes: number;
    cacheBytes: number;
    cacheEntries: number;
    tenantBytes: number;
    tenantEntries: number;
    /** Instructions of one compiled program (pattern-program.ts): what each byte matched may cost. */
    maxProgramSize: number;
    /** Bytes of value x instructions one match may take; a longer value is not matched. */
    maxMatchSteps: number;
    /** Steps of all pattern matches, and of all compilations, of one request (pattern-budget.ts). */
    maxRequestMatchSteps: number;
    maxRequestCompileSteps: number;
  };
  formulas: { maxTextLength: number; maxSteps: number };
}

function parseCustomFieldLimits(env: Env): CustomFieldLimitsConfig {
  const mib = 1024 * 1024;
  const patterns = {
    maxLength: integer(env, "PATTERN_MAX_LENGTH", 500),
    maxCompileBytes: integer(env, "PATTERN_MAX_COMPILE_BYTES", mib),
    cacheBytes: integer(env, "PATTERN_CACHE_BYTES", 6 * mib),
    cacheEntries: integer(env, "PATTERN_CACHE_ENTRIES", 500),
    tenantBytes: integer(env, "PATTERN_CACHE_TENANT_BYTES", 2 * mib),
    tenantEntries: integer(env, "PATTERN_CACHE_TENANT_ENTRIES", 50),
    maxProgramSize: integer(env, "PATTERN_MAX_PROGRAM_SIZE", 4_000),
    maxMatchSteps: integer(env, "PATTERN_MAX_MATCH_STEPS", 75_000),
    maxRequestMatchSteps: integer(env, "PATTERN_MAX_REQUEST_MATCH_STEPS", 80_000),
    maxRequestCompileSteps: integer(env, "PATTERN_MAX_REQUEST_COMPILE_STEPS", 170_000),
  };
  // One longest match fits in any request.
  if (patterns.maxRequestMatchSteps < patterns.maxMatchSteps) {
    throw new ConfigError("PATTERN_MAX_REQUEST_MATCH_STEPS", `must be at least PATTERN_MAX_MATCH_STEPS (${patterns.maxMatchSteps})`);
  }
  if (patterns.tenantBytes > patterns.cacheBytes) {
    throw new ConfigError("PATTERN_CACHE_TENANT_BYTES", "must not exceed PATTERN_CACHE_BYTES");
  }
  if (patterns.maxCompileBytes > patterns.tenantBytes) {
    throw new ConfigError("PATTERN_MAX_COMPILE_BYTES", "must not exceed PATTERN_CACHE_TENANT_BYTES");
  }
  const formulas = {
    maxTextLength: integer(env, "FORMULA_MAX_TEXT_LENGTH", 10_000),
    maxSteps: integer(env, "FORMULA_MAX_STEPS", 100_000),
  };
  return { patterns, formulas };
}

/**
 * No request of this API carries file bytes, so 256 KiB holds every legitimate one with room to
 * spare (500 select options at their bounds, a record with twenty 10,000-character texts). It is
 * also what keeps decoding inside the per-request budget: a body of 1 MiB with 50,000 map entries
 * cost protobuf-es about 50-100 ms to decode before any check could refuse it.
 */
export const DEFAULT_MAX_REQUEST_BODY_BYTES = 256 * 1024;

export function parseConfig(env: Env): Config {
  const developmentMode = isDevelopmentMode(env);
  const redisUrl = optional(env, "REDIS_URL");
  const otlpEndpoint = optional(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  const completeWaitTimeoutSeconds = integer(env, "COMPLETE_WAIT_TIMEOUT_SECONDS", 30);
  return {
    developmentMode,
    host: listenHost(env, developmentMode),
    port: integer(env, "PORT", 8080, 0),
    metrics: { host: optional(env, "METRICS_HOST") ?? "127.0.0.1", port: integer(env, "METRICS_PORT", 9464, 0) },
    logLevel: optional(env, "LOG_LEVEL") ?? "info",
    logFormat: logFormat(env),
    databaseUrl: url(env, "DATABASE_URL", required(env, "DATABASE_URL"), ["postgres:", "postgresql:"]),
    storage: parseStorage(env),
    temporal: {
      address: required(env, "TEMPORAL_ADDRESS"),
      namespace: optional(env, "TEMPORAL_NAMESPACE") ?? "default",
      taskQueue: optional(env, "TEMPORAL_TASK_QUEUE") ?? "file-storage",
      uiUrl: optional(env, "TEMPORAL_UI_URL"),
    },
    redisUrl: redisUrl ? url(env, "REDIS_URL", redisUrl, ["redis:", "rediss:"]) : undefined,
    auth: parseAuth(env, developmentMode),
    retention: parseRetention(env),
    customFieldsCacheTtlSeconds: integer(env, "CUSTOM_FIELDS_CACHE_TTL_SECONDS", 3600),
    customFieldLimits: parseCustomFieldLimits(env),
    customFieldIndexes: {
      maxIndexedFieldsPerTenant: integer(env, "CUSTOM_FIELDS_MAX_INDEXED_FIELDS", 10, 0),
      buildIntervalSeconds: integer(env, "CUSTOM_FIELD_INDEX_BUILD_INTERVAL_SECONDS", 5),
    },
    customFieldDefinitions: { maxPerEntityType: integer(env, "CUSTOM_FIELDS_MAX_DEFINITIONS_PER_ENTITY_TYPE", DEFAULT_MAX_DEFINITIONS_PER_ENTITY_TYPE) },
    completeWaitTimeoutSeconds,
    scan: {
      timeoutSeconds: integer(env, "SCAN_TIMEOUT_SECONDS", 600),
      heartbeatTimeoutSeconds: integer(env, "SCAN_HEARTBEAT_TIMEOUT_SECONDS", 30),
      inlineMaxBytes: integer(env, "SCAN_INLINE_MAX_BYTES", 16 * 1024 * 1024, 0),
      officeMaxExpansionRatio: integer(env, "SCAN_OFFICE_MAX_EXPANSION_RATIO", 100),
      officeMaxUncompressedBytes: integer(env, "SCAN_OFFICE_MAX_UNCOMPRESSED_BYTES", 1024 * 1024 * 1024),
      pdfMaxObjectStreamBytes: integer(env, "SCAN_PDF_MAX_OBJECT_STREAM_BYTES", 16 * 1024 * 1024, 1),
      pdfMaxInflatedBytes: integer(env, "SCAN_PDF_MAX_INFLATED_BYTES", 64 * 1024 * 1024, 1),
      svgMaxBytes: integer(env, "SCAN_SVG_MAX_BYTES", 5 * 1024 * 1024),
      svgMaxDepth: integer(env, "SCAN_SVG_MAX_DEPTH", 256),
      svgMaxElements: integer(env, "SCAN_SVG_MAX_ELEMENTS", 100_000),
      svgMaxCssChars: integer(env, "SCAN_SVG_MAX_CSS_CHARS", 128 * 1024),
    },
    worker: parseWorker(env, developmentMode),
    maxRequestBodyBytes: integer(env, "MAX_REQUEST_BODY_BYTES", DEFAULT_MAX_REQUEST_BODY_BYTES),
    shutdownGraceSeconds: integer(env, "SHUTDOWN_GRACE_SECONDS", 20),
    http: parseHttpLimits(env, completeWaitTimeoutSeconds),
    database: parseDatabaseLimits(env, developmentMode),
    webhooks: parseWebhooks(env, developmentMode, optional(env, "TEMPORAL_TASK_QUEUE") ?? "file-storage"),
    reflection: { public: boolean(env, "GRPC_REFLECTION_PUBLIC", false), publicRequestsPerMinute: integer(env, "GRPC_REFLECTION_PUBLIC_REQUESTS_PER_MINUTE", 60) },
    otlpEndpoint: otlpEndpoint ? url(env, "OTEL_EXPORTER_OTLP_ENDPOINT", otlpEndpoint, ["http:", "https:"]) : undefined,
    audit: { ...parseAuditSigningKeys(env, developmentMode), checkpointIntervalSeconds: integer(env, "AUDIT_CHECKPOINT_INTERVAL_SECONDS", 3600) },
    clamd: parseClamd(env),
  };
}

/** When a SCANNING object counts as stuck: the scan activity's whole budget plus a minute. */
export function scanDeadlineSeconds(config: Pick<Config, "scan">): number {
  return config.scan.timeoutSeconds + 60;
}
