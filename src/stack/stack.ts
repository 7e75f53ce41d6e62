/**
 * Everything the API server and worker need, on loopback: what `env` configures is used as is,
 * and an embedded default is started for what it does not configure: Redis too (Debian's
 * redis-server, redis.ts), so the definition cache runs as in production, and clamd (Debian's
 * clamav-daemon with the project's test signatures, clamd.ts) for the malware scan.
 *
 * TEMPORAL_MODE picks the Temporal server: `dev` (default) the CLI's dev server (one process,
 * SQLite); `server` the real Temporal server on the stack's PostgreSQL (or DATABASE_URL's) with
 * the Web UI server beside it (temporal-server.ts, temporal-ui.ts), as in production.
 *
 * dataDir layout: postgres/ (cluster), minio/ (drive), redis/ (nothing kept), temporal.db (SQLite, dev mode),
 * temporal-server/ and temporal-ui/ (rendered configs, server mode), clamd/ (config, signature
 * database, socket), logs/ (one log per component). A second start with the same dataDir reuses all
 * of it but clamd's signature database, which each start writes afresh.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { ensureBinary } from "./go-binaries.js";
import type { Log } from "./log-file.js";
import { ensureClamd, LARGEST_CLASS_MAX_BYTES, startClamd } from "./clamd.js";
import { startMinio } from "./minio.js";
import { ensureRedisServer, startRedis } from "./redis.js";
import { resolvePort, type PortMode, type PortName } from "./ports.js";
import { startEmbeddedPostgres } from "./postgres.js";
import { startTemporal } from "./temporal.js";
import { internalPorts, startTemporalServer, type TemporalServerPorts } from "./temporal-server.js";
import { startTemporalUi } from "./temporal-ui.js";

export interface StackOptions {
  /** Where `.tools/bin` (built Go binaries) lives. */
  projectRoot: string;
  dataDir: string;
  /** Usually process.env; also read for STACK_*_PORT overrides (see ports.ts) and TEMPORAL_MODE. */
  env: Record<string, string | undefined>;
  ports: PortMode;
  log: Log;
  /** A terminal's status line for Go tool build progress (see EnsureBinaryOptions). */
  status?: (text: string) => void;
}

export interface StackComponent {
  name: string;
  address: string;
}

export type ServiceName = "postgres" | "minio" | "temporal" | "redis" | "clamd";

const LABELS: Record<ServiceName, string> = { postgres: "PostgreSQL", minio: "MinIO", temporal: "Temporal", redis: "Redis", clamd: "clamd" };

export interface Stack {
  /**
   * The components this stack started, each stoppable and startable again on the same port and
   * data (fault tests stop a dependency under traffic and bring it back).
   */
  services: Partial<Record<ServiceName, { stop(): Promise<void>; start(): Promise<void> }>>;
  /** Only the variables for what the stack started; merge over the caller's environment. */
  env: Record<string, string>;
  components: StackComponent[];
  stop(): Promise<void>;
}

type Ports = Partial<Record<PortName, number>>;
type Context = StackOptions & { logDir: string };

interface Started {
  env: Record<string, string>;
  components: StackComponent[];
  stop(): Promise<void>;
}

const unset = (env: StackOptions["env"], name: string) => (env[name]?.trim() ?? "") === "";

type TemporalMode = "dev" | "server";

/** TEMPORAL_MODE: `dev` (default) or `server`; anything else stops the start. */
function temporalMode(env: StackOptions["env"]): TemporalMode {
  const raw = env.TEMPORAL_MODE?.trim() || "dev";
  if (raw === "dev" || raw === "server") return raw;
  throw new Error(`TEMPORAL_MODE: must be "dev" (the Temporal CLI's dev server) or "server" (the Temporal server on PostgreSQL), got "${raw}"`);
}

/** Closed workflows' histories are kept this long in the namespace the server mode registers. */
const NAMESPACE_RETENTION_HOURS = 24;

export async function startStack(options: StackOptions): Promise<Stack> {
  const { env, log } = options;
  const mode = temporalMode(env);
  const dataDir = path.resolve(options.dataDir);
  const logDir = path.join(dataDir, "logs");
  mkdirSync(logDir, { recursive: true });

  const wanted: PortName[] = [];
  if (unset(env, "DATABASE_URL")) wanted.push("postgres");
  else log("PostgreSQL: using DATABASE_URL");
  if (unset(env, "STORAGE_ENDPOINT")) wanted.push("minio", "minioConsole");
  else log("MinIO: using STORAGE_ENDPOINT");
  if (unset(env, "TEMPORAL_ADDRESS")) wanted.push("temporal", "temporalUi");
  else log("Temporal: using TEMPORAL_ADDRESS");
  if (unset(env, "REDIS_URL")) wanted.push("redis");
  else log("Redis: using REDIS_URL");
  if (unset(env, "CLAMD_ADDRESS")) wanted.push("clamd");
  else log("clamd: using CLAMD_ADDRESS");

  // All ports first, so a taken port fails the start before anything is started or built.
  const ports: Ports = {};
  for (const name of wanted) ports[name] = await resolvePort(name, options.ports, env);
  const context: Context = { ...options, dataDir, logDir };
  const starters: Partial<Record<ServiceName, () => Promise<Started>>> = {};
  // The Temporal server (server mode) waits for the first start of the embedded PostgreSQL.
  let postgresStart: Promise<Started> | undefined;
  if (ports.postgres) {
    starters.postgres = () => {
      const start = postgres(context, ports.postgres!);
      postgresStart ??= start;
      return start;
    };
  }
  if (ports.minio && ports.minioConsole) starters.minio = () => minio(context, ports.minio!, ports.minioConsole!);
  if (ports.redis) starters.redis = () => redis(context, ports.redis!);
  if (ports.clamd) {
    // The signature database is written afresh by the stack's start only: a restart of clamd
    // (fault tests) keeps what a test added to it.
    let fresh = true;
    starters.clamd = async () => {
      const started = await clamd(context, ports.clamd!, fresh);
      fresh = false;
      return started;
    };
  }
  if (ports.temporal && ports.temporalUi && mode === "dev") {
    starters.temporal = () => temporal(context, ports.temporal!, ports.temporalUi!);
  }
  if (ports.temporal && ports.temporalUi && mode === "server") {
    // Chosen once, so that a restart (fault tests) brings the cluster back on the same ports.
    const serverPorts = await internalPorts(ports.temporal);
    const databaseUrl = async () => (postgresStart ? (await postgresStart).env.DATABASE_URL : env.DATABASE_URL!.trim());
    starters.temporal = () => temporalServer(context, serverPorts, ports.temporalUi!, databaseUrl);
  }

  // In parallel: a cold start is dominated by the slowest component, not their sum.
  const names = Object.keys(starters) as ServiceName[];
  const results = await Promise.allSettled(names.map((name) => starters[name]!()));
  const current = new Map<ServiceName, Started>();
  results.forEach((result, i) => result.status === "fulfilled" && current.set(names[i], result.value));
  const failures = results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
  const stopOne = async (name: ServiceName) => {
    await current.get(name)?.stop();
    log(`${LABELS[name]}: stopped`);
  };
  const stop = once(async () => {
    // PostgreSQL last: the Temporal server (server mode) persists to it and stops cleanly only with it.
    const others = [...current.keys()].filter((name) => name !== "postgres");
    await Promise.all(others.map(stopOne));
    if (current.has("postgres")) await stopOne("postgres");
  });
  if (failures.length > 0) {
    await stop();
    const messages = failures.map((failure) => (failure instanceof Error ? failure.message : String(failure)));
    throw new Error(messages.join("\n"));
  }
  const started = [...current.values()];
  const services: Stack["services"] = {};
  for (const name of names) {
    services[name] = {
      async stop() {
        await current.get(name)?.stop();
        current.delete(name);
      },
      async start() {
        if (!current.has(name)) current.set(name, await starters[name]!());
      },
    };
  }
  return {
    env: Object.assign({}, ...started.map((each) => each.env)),
    components: started.flatMap((each) => each.components),
    services,
    stop,
  };
}

async function postgres(options: Context, port: number): Promise<Started> {
  const started = Date.now();
  const pg = await startEmbeddedPostgres({
    dataDir: path.join(options.dataDir, "postgres"),
    port,
    logDir: options.logDir,
    log: options.log,
  });
  options.log(`PostgreSQL: ready in ${seconds(started)}`);
  return {
    env: { DATABASE_URL: pg.url },
    components: [{ name: "PostgreSQL", address: pg.url }],
    stop: pg.stop,
  };
}

async function minio(options: Context, port: number, consolePort: number): Promise<Started> {
  const binary = await ensureBinary("minio", { projectRoot: options.projectRoot, log: options.log, status: options.status });
  const started = Date.now();
  const storage = await startMinio({
    binary,
    dataDir: path.join(options.dataDir, "minio"),
    port,
    consolePort,
    logDir: options.logDir,
    log: options.log,
    bucket: options.env.STORAGE_BUCKET?.trim() || undefined,
  });
  options.log(`MinIO: ready in ${seconds(started)}`);
  return {
    env: {
      STORAGE_ENDPOINT: storage.endpoint,
      STORAGE_BUCKET: storage.bucket,
      STORAGE_ACCESS_KEY: storage.accessKey,
      STORAGE_SECRET_KEY: storage.secretKey,
      STORAGE_REGION: storage.region,
      STORAGE_FORCE_PATH_STYLE: "true",
      STORAGE_OBJECT_LOCK: String(storage.objectLock),
    },
    components: [
      { name: "MinIO API", address: storage.endpoint },
      { name: "MinIO console", address: storage.consoleUrl },
    ],
    stop: storage.stop,
  };
}

async function redis(options: Context, port: number): Promise<Started> {
  const binary = ensureRedisServer(options.log);
  const started = Date.now();
  const server = await startRedis({ binary, dataDir: path.join(options.dataDir, "redis"), port, logDir: options.logDir, log: options.log });
  options.log(`Redis: ready in ${seconds(started)}`);
  return { env: { REDIS_URL: server.url }, components: [{ name: "Redis", address: server.url }], stop: server.stop };
}

async function clamd(options: Context, port: number, freshDatabase: boolean): Promise<Started> {
  const binary = ensureClamd(options.log);
  const started = Date.now();
  const server = await startClamd({ binary, dataDir: path.join(options.dataDir, "clamd"), port, logDir: options.logDir, log: options.log, freshDatabase });
  options.log(`clamd: ready in ${seconds(started)}`);
  return {
    env: { CLAMD_ADDRESS: server.address, CLAMD_STREAM_MAX_BYTES: String(LARGEST_CLASS_MAX_BYTES) },
    components: [{ name: "clamd", address: server.address }],
    stop: server.stop,
  };
}

async function temporal(options: Context, port: number, uiPort: number): Promise<Started> {
  const binary = await ensureBinary("temporal", { projectRoot: options.projectRoot, log: options.log, status: options.status });
  const started = Date.now();
  const server = await startTemporal({
    binary,
    dbFile: path.join(options.dataDir, "temporal.db"),
    port,
    uiPort,
    logDir: options.logDir,
    log: options.log,
    namespace: options.env.TEMPORAL_NAMESPACE?.trim() || undefined,
  });
  options.log(`Temporal: ready in ${seconds(started)}`);
  return {
    env: { TEMPORAL_ADDRESS: server.address, TEMPORAL_UI_URL: server.uiUrl },
    components: [
      { name: "Temporal gRPC", address: server.address },
      { name: "Temporal UI", address: server.uiUrl },
    ],
    stop: server.stop,
  };
}

/** TEMPORAL_MODE=server: the Temporal server on PostgreSQL, then its Web UI. */
async function temporalServer(
  options: Context,
  ports: TemporalServerPorts,
  uiPort: number,
  databaseUrl: () => Promise<string>,
): Promise<Started> {
  const ensure = (name: "temporal" | "temporal-server" | "temporal-sql-tool" | "temporal-ui-server") =>
    ensureBinary(name, { projectRoot: options.projectRoot, log: options.log, status: options.status });
  const [cli, server, sqlTool, uiBinary] = await Promise.all([
    ensure("temporal"),
    ensure("temporal-server"),
    ensure("temporal-sql-tool"),
    ensure("temporal-ui-server"),
  ]);
  const started = Date.now();
  const namespace = options.env.TEMPORAL_NAMESPACE?.trim() || "default";
  const running = await startTemporalServer({
    binaries: { server, sqlTool, cli },
    databaseUrl: await databaseUrl(),
    dataDir: path.join(options.dataDir, "temporal-server"),
    ports,
    logDir: options.logDir,
    log: options.log,
    namespace,
    retentionHours: NAMESPACE_RETENTION_HOURS,
  });
  const ui = await startTemporalUi({
    binary: uiBinary,
    temporalAddress: running.address,
    namespace,
    port: uiPort,
    dataDir: path.join(options.dataDir, "temporal-ui"),
    logDir: options.logDir,
    log: options.log,
  }).catch(async (error: unknown) => {
    await running.stop();
    throw error;
  });
  options.log(`Temporal server: ready in ${seconds(started)}`);
  return {
    env: { TEMPORAL_ADDRESS: running.address, TEMPORAL_UI_URL: ui.url },
    components: [
      { name: "Temporal gRPC (server on PostgreSQL)", address: running.address },
      { name: "Temporal UI", address: ui.url },
    ],
    async stop() {
      await ui.stop();
      await running.stop();
    },
  };
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}
