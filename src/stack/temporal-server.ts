/**
 * The real Temporal server (TEMPORAL_MODE=server): the same server the dev server embeds, but
 * persisting to PostgreSQL (databases `temporal` and `temporal_visibility` on the stack's
 * PostgreSQL) and configured from a YAML file, as it runs in production. Started in four steps,
 * each safe to repeat on a restart with the same data:
 * 1. the schema tool creates both databases when missing and brings their schemas up to the
 *    server's version (`setup-schema -v 0.0` is a no-op on a set-up database; `update-schema`
 *    applies only the versions not yet applied);
 * 2. the config file is written into the data directory from the template below;
 * 3. the server starts and is waited for;
 * 4. the namespace and the app's search attributes are registered (existing ones are kept).
 * The Web UI server is started beside it by the stack (temporal-ui.ts).
 */
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { Connection } from "@temporalio/client";
import { findFreePortBelow } from "./free-port.js";
import type { Log } from "./log-file.js";
import { spawnLogged } from "./process.js";
import { waitUntilReady } from "./readiness.js";
import { REGISTERED_SEARCH_ATTRIBUTES } from "./temporal.js";

const run = promisify(execFile);

export interface TemporalServerBinaries {
  server: string;
  sqlTool: string;
  /** The Temporal CLI, for `temporal operator` (namespace and search attributes). */
  cli: string;
}

/** Every port the server's four services listen on; membership ports below 32768 (smallint). */
export interface TemporalServerPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
}

export interface TemporalServerOptions {
  binaries: TemporalServerBinaries;
  /** A PostgreSQL URL whose user may create databases; its host, port and credentials are used. */
  databaseUrl: string;
  /** Holds config/ (the rendered config) and dynamicconfig.yaml. */
  dataDir: string;
  ports: TemporalServerPorts;
  logDir: string;
  log: Log;
  namespace: string;
  /** How long the namespace keeps closed workflows' histories. */
  retentionHours: number;
  startTimeoutMs?: number;
}

export interface RunningTemporalServer {
  address: string;
  stop(): Promise<void>;
}

/** Kept below 32768: the cluster_membership table stores them as a PostgreSQL smallint. */
const MEMBERSHIP_PORT_LIMIT = 32_768;

const DATABASES = [
  { name: "temporal", schema: "postgresql/v12/temporal" },
  { name: "temporal_visibility", schema: "postgresql/v12/visibility" },
] as const;

/** The ports besides the frontend's (which the stack allocates like its other public ports). */
export async function internalPorts(frontend: number): Promise<TemporalServerPorts> {
  const below = () => findFreePortBelow(MEMBERSHIP_PORT_LIMIT);
  return {
    frontend,
    frontendHttp: await below(),
    frontendMembership: await below(),
    history: await below(),
    historyMembership: await below(),
    matching: await below(),
    matchingMembership: await below(),
    worker: await below(),
    workerMembership: await below(),
  };
}

export async function startTemporalServer(options: TemporalServerOptions): Promise<RunningTemporalServer> {
  const database = new URL(options.databaseUrl);
  await prepareDatabases(options.binaries.sqlTool, database);
  const configDir = path.join(options.dataDir, "config");
  mkdirSync(configDir, { recursive: true });
  const dynamicConfig = path.join(options.dataDir, "dynamicconfig.yaml");
  writeFileSync(dynamicConfig, DYNAMIC_CONFIG);
  writeFileSync(path.join(configDir, "stack.yaml"), renderConfig(options.ports, database, dynamicConfig));

  const address = `127.0.0.1:${options.ports.frontend}`;
  const child = spawnLogged({
    name: "temporal-server",
    command: options.binaries.server,
    // --allow-no-auth: no authorizer, as the dev server; the frontend listens on loopback only.
    args: ["--root", options.dataDir, "--config", "config", "--env", "stack", "--allow-no-auth", "start"],
    logDir: options.logDir,
    log: options.log,
  });
  const timeoutMs = options.startTimeoutMs ?? 120_000;
  try {
    // The frontend answers before the other services have joined; registering the namespace is
    // what needs all of them, so it is both the wait and step 4 (repeated until it succeeds).
    await waitUntilReady({
      what: "Temporal server",
      child,
      timeoutMs,
      intervalMs: 1_000,
      check: () => register(options, address),
    });
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { address, stop: child.stop };
}

async function prepareDatabases(sqlTool: string, database: URL): Promise<void> {
  for (const each of DATABASES) {
    const env = {
      ...process.env,
      SQL_PLUGIN: "postgres12",
      SQL_HOST: database.hostname,
      SQL_PORT: database.port || "5432",
      SQL_USER: decodeURIComponent(database.username),
      SQL_PASSWORD: decodeURIComponent(database.password),
      SQL_DATABASE: each.name,
    };
    // create-database keeps an existing database (the tool ignores PostgreSQL's duplicate error).
    for (const args of [["create-database"], ["setup-schema", "-v", "0.0"], ["update-schema", "--schema-name", each.schema]]) {
      await run(sqlTool, args, { env }).catch((error: unknown) => {
        throw schemaError(each.name, args[0], error);
      });
    }
  }
}

/** True once the namespace and every search attribute exist (creating what is missing). */
async function register(options: TemporalServerOptions, address: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: "2s" });
  try {
    await connection.workflowService.describeNamespace({ namespace: options.namespace });
  } catch {
    await operator(options, address, ["namespace", "create", "--retention", `${options.retentionHours}h`]);
    return false;
  } finally {
    await connection.close();
  }
  // Existing attributes of the same type are accepted again (the CLI checks the type first).
  const pairs = Object.entries(REGISTERED_SEARCH_ATTRIBUTES).flatMap(([name, type]) => ["--name", name, "--type", type]);
  await operator(options, address, ["search-attribute", "create", ...pairs]);
  return true;
}

async function operator(options: TemporalServerOptions, address: string, args: string[]): Promise<void> {
  const [noun, verb, ...rest] = args;
  await run(options.binaries.cli, ["operator", noun, verb, "--address", address, "--namespace", options.namespace, ...rest]);
}

function outputOf(error: unknown): string {
  const failed = error as { stderr?: string; stdout?: string; message?: string };
  return `${failed.stderr ?? ""}${failed.stdout ?? ""}${failed.message ?? ""}`;
}

function schemaError(database: string, step: string, error: unknown): Error {
  const lines = outputOf(error).trim().split("\n").slice(-5).join("\n");
  return new Error(`Temporal server: temporal-sql-tool ${step} failed on database ${database}:\n${lines}`);
}

const DYNAMIC_CONFIG = `# Written by the stack (src/stack/temporal-server.ts) on every start.
# Search attributes registered at start are usable at once (as on the dev server), instead of
# after the search attribute cache's refresh; the persistence QPS limits are raised to match,
# as the dev server does.
system.forceSearchAttributesCacheRefreshOnRead:
  - value: true
frontend.persistenceMaxQPS:
  - value: 10000
history.persistenceMaxQPS:
  - value: 45000
limit.maxIDLength:
  - value: 255
`;

/** From the server module's config/development-postgres12.yaml, with our ports and databases. */
function renderConfig(ports: TemporalServerPorts, database: URL, dynamicConfig: string): string {
  const quoted = JSON.stringify;
  const store = (name: string, maxConns: number) => `
      sql:
        pluginName: "postgres12"
        databaseName: ${quoted(name)}
        connectAddr: ${quoted(`${database.hostname}:${database.port || "5432"}`)}
        connectProtocol: "tcp"
        user: ${quoted(decodeURIComponent(database.username))}
        password: ${quoted(decodeURIComponent(database.password))}
        maxConns: ${maxConns}
        maxIdleConns: ${maxConns}
        maxConnLifetime: "1h"`;
  const service = (grpc: number, membership: number, extra = "") => `
    rpc:
      grpcPort: ${grpc}
      membershipPort: ${membership}
      bindOnLocalHost: true${extra}`;
  return `# Written by the stack (src/stack/temporal-server.ts) on every start.
log:
  stdout: true
  level: warn

persistence:
  defaultStore: postgres-default
  visibilityStore: postgres-visibility
  # Fixed when the database is first set up; the server refuses another value later.
  numHistoryShards: 4
  datastores:
    postgres-default:${store("temporal", 20)}
    postgres-visibility:${store("temporal_visibility", 5)}

global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"

services:
  frontend:${service(ports.frontend, ports.frontendMembership, `\n      httpPort: ${ports.frontendHttp}`)}
  history:${service(ports.history, ports.historyMembership)}
  matching:${service(ports.matching, ports.matchingMembership)}
  worker:${service(ports.worker, ports.workerMembership)}

clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "127.0.0.1:${ports.frontend}"

dcRedirectionPolicy:
  policy: "noop"

archival:
  history:
    state: "disabled"
  visibility:
    state: "disabled"

namespaceDefaults:
  archival:
    history:
      state: "disabled"
    visibility:
      state: "disabled"

dynamicConfigClient:
  filepath: ${quoted(dynamicConfig)}
  pollInterval: "10s"
`;
}
