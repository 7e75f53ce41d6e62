/**
 * Configuration: read raw from the environment, then validated into one typed object that is
 * passed down. A bad value stops the process with one line naming the variable (docs/decisions.md).
 * Each section has a file of its own in this folder; this one assembles them, in the order they
 * are checked.
 */
import { DEFAULT_MAX_DEFINITIONS_PER_ENTITY_TYPE } from "../domain/customfields/definition-quota.js";
import { type AuditConfig, parseAuditSigningKeys } from "./audit.js";
import { type AuthConfig, parseAuth } from "./auth.js";
import { ConfigError } from "./config-error.js";
import { type CustomFieldIndexConfig, parseCustomFieldIndexes } from "./custom-field-indexes.js";
import { type CustomFieldLimitsConfig, parseCustomFieldLimits } from "./custom-field-limits.js";
import { type DatabaseLimitsConfig, parseDatabaseLimits } from "./database-limits.js";
import { isDevelopmentMode, listenHost } from "./development-mode.js";
import type { Env } from "./env.js";
import { boolean, integer, optional, required, url } from "./env-values.js";
import { DEFAULT_MAX_REQUEST_BODY_BYTES, type HttpLimitsConfig, parseHttpLimits } from "./http-limits.js";
import { type ClamdConfig, parseClamd } from "./malware-scanner.js";
import { type MalwareRescanConfig, parseMalwareRescan } from "./malware-rescan.js";
import { type MetricsConfig, parseMetrics } from "./metrics.js";
import { parseRetention, type RetentionConfig } from "./retention.js";
import { parseScan, type ScanConfig } from "./scan.js";
import { parseStorage, type StorageConfig } from "./storage.js";
import { parseWebhooks, type WebhookConfig } from "./webhooks.js";
import { parseWorker, type WorkerConfig } from "./worker.js";

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
  customFieldLimits: CustomFieldLimitsConfig;
  customFieldIndexes: CustomFieldIndexConfig;
  /** Live definitions one tenant may have per entity type; the next create is refused. */
  customFieldDefinitions: { maxPerEntityType: number };
  completeWaitTimeoutSeconds: number;
  scan: ScanConfig;
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
  /** The re-scan when the signatures change (src/config/malware-rescan.ts). */
  malwareRescan: MalwareRescanConfig;
}

function logFormat(env: Env): "json" | "pretty" | undefined {
  const raw = optional(env, "LOG_FORMAT")?.toLowerCase();
  if (raw === undefined || raw === "json" || raw === "pretty") return raw;
  throw new ConfigError("LOG_FORMAT", `must be json or pretty, got "${raw}"`);
}

export function parseConfig(env: Env): Config {
  const developmentMode = isDevelopmentMode(env);
  const redisUrl = optional(env, "REDIS_URL");
  const otlpEndpoint = optional(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  const completeWaitTimeoutSeconds = integer(env, "COMPLETE_WAIT_TIMEOUT_SECONDS", 30);
  return {
    developmentMode,
    host: listenHost(env, developmentMode),
    port: integer(env, "PORT", 8080, 0),
    metrics: parseMetrics(env),
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
    customFieldIndexes: parseCustomFieldIndexes(env),
    customFieldDefinitions: { maxPerEntityType: integer(env, "CUSTOM_FIELDS_MAX_DEFINITIONS_PER_ENTITY_TYPE", DEFAULT_MAX_DEFINITIONS_PER_ENTITY_TYPE) },
    completeWaitTimeoutSeconds,
    scan: parseScan(env),
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
    malwareRescan: parseMalwareRescan(env),
  };
}
