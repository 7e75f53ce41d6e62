/**
 * clamd, the ClamAV daemon, for the malware scan: Debian's `clamav-daemon` (installed with apt-get
 * when missing and this process may, as redis-server and Chromium are), run in the foreground
 * with a configuration the project writes: loopback TCP (and a Unix socket in the data directory
 * when its path fits), limits from the object classes, the project's signature database
 * (clamd-signatures.ts) and no freshclam. Ready when it answers PING.
 *
 * dataDir layout: clamd.conf, database/ (daily.cud), tmp/ (clamd's spill files), clamd.sock.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { clamdScanner } from "../adapters/clamav/clamd-scanner.js";
import { formatClamdAddress, type ClamdAddress } from "../config/malware-scanner.js";
import { objectClasses } from "../domain/files/object-classes.js";
import { signatureDatabase, type DatabaseOptions } from "./clamd-signatures.js";
import type { Log } from "./log-file.js";
import { spawnLogged } from "./process.js";
import { waitUntilReady } from "./readiness.js";

export const CLAMD_BINARY = "/usr/sbin/clamd";
const PACKAGE = "clamav-daemon";

/** The largest file any class accepts: clamd must take a stream that long (StreamMaxLength). */
export const LARGEST_CLASS_MAX_BYTES = Math.max(...Object.values(objectClasses).map((rules) => rules.maxSizeBytes));

/** Installs Debian's clamav-daemon when clamd is missing and allowed (root with apt-get); else says how. */
export function ensureClamd(log: Log): string {
  if (existsSync(CLAMD_BINARY)) return CLAMD_BINARY;
  const root = process.getuid?.() === 0;
  if (!root || !existsSync("/usr/bin/apt-get")) {
    throw new Error(`clamd is needed for the malware scan: install Debian's package (sudo apt-get install ${PACKAGE}), or set CLAMD_ADDRESS to use a running clamd`);
  }
  log(`clamd: installing Debian's ${PACKAGE} (first run only)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "ignore", env });
  // clamav-freshclam comes along as a dependency; nothing here runs it (the project writes the database).
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", PACKAGE], { stdio: "ignore", env });
  if (!existsSync(CLAMD_BINARY)) throw new Error(`apt-get installed ${PACKAGE}, yet ${CLAMD_BINARY} is missing`);
  return CLAMD_BINARY;
}

export interface ClamdOptions {
  binary: string;
  dataDir: string;
  /** Loopback TCP port. */
  port: number;
  logDir: string;
  log: Log;
  /** StreamMaxLength and MaxFileSize; the largest class maximum by default. */
  streamMaxBytes?: number;
  /** Write the signature database (version 1) even when one exists; it is always written when missing. */
  freshDatabase?: boolean;
  /** Also the log file name; "clamd" by default. */
  name?: string;
  startTimeoutMs?: number;
}

export interface RunningClamd {
  /** CLAMD_ADDRESS: the TCP address. */
  address: string;
  /** The Unix socket, when its path is short enough for one (about 100 bytes). */
  socketPath?: string;
  /** Where the signature database lives (writeSignatureDatabase, then RELOAD). */
  databaseDir: string;
  stop(): Promise<void>;
}

/** A Unix socket path longer than sun_path (108 bytes with its terminator) cannot be bound. */
const MAX_SOCKET_PATH = 100;

/** Writes `daily.cud` into `databaseDir`; clamd loads it at start and on RELOAD. */
export function writeSignatureDatabase(databaseDir: string, options: DatabaseOptions): void {
  mkdirSync(databaseDir, { recursive: true });
  // Written beside, then renamed: a RELOAD never reads half a file.
  const file = path.join(databaseDir, "daily.cud");
  writeFileSync(`${file}.tmp`, signatureDatabase(options));
  renameSync(`${file}.tmp`, file);
}

export async function startClamd(options: ClamdOptions): Promise<RunningClamd> {
  const name = options.name ?? "clamd";
  const databaseDir = path.join(options.dataDir, "database");
  const tmpDir = path.join(options.dataDir, "tmp");
  mkdirSync(tmpDir, { recursive: true });
  if (options.freshDatabase || !existsSync(path.join(databaseDir, "daily.cud"))) {
    writeSignatureDatabase(databaseDir, { version: 1, builtAt: new Date() });
  }
  const socket = path.join(options.dataDir, "clamd.sock");
  const socketPath = socket.length <= MAX_SOCKET_PATH ? socket : undefined;
  const streamMax = options.streamMaxBytes ?? LARGEST_CLASS_MAX_BYTES;
  const conf = path.join(options.dataDir, "clamd.conf");
  writeFileSync(
    conf,
    clamdConf({ databaseDir, tmpDir, port: options.port, socketPath, streamMax }),
  );

  const child = spawnLogged({
    name,
    command: options.binary,
    args: ["--config-file", conf],
    // VERSION prints the database date in clamd's local time, without a zone (clamd-version.ts).
    env: { ...process.env, TZ: "UTC" },
    logDir: options.logDir,
    log: options.log,
  });
  const address: ClamdAddress = { kind: "tcp", host: "127.0.0.1", port: options.port };
  const scanner = clamdScanner({ address, connectTimeoutMs: 2_000, idleTimeoutMs: 2_000 });
  await waitUntilReady({
    what: "clamd",
    child,
    timeoutMs: options.startTimeoutMs ?? 60_000,
    intervalMs: 50,
    check: async () => {
      await scanner.ping();
      return true;
    },
  });
  return { address: formatClamdAddress(address), socketPath, databaseDir, stop: child.stop };
}

interface ConfValues {
  databaseDir: string;
  tmpDir: string;
  port: number;
  socketPath?: string;
  streamMax: number;
}

function clamdConf(values: ConfValues): string {
  return [
    "# Written by src/stack/clamd.ts at each start; edits are lost.",
    "Foreground yes",
    // In the foreground clamd logs to its output, which the stack sends to <logDir>/<name>.log.
    "LogTime yes",
    `DatabaseDirectory ${values.databaseDir}`,
    `TemporaryDirectory ${values.tmpDir}`,
    "TCPAddr 127.0.0.1",
    `TCPSocket ${values.port}`,
    ...(values.socketPath ? [`LocalSocket ${values.socketPath}`] : []),
    // A stream past StreamMaxLength is refused ("INSTREAM size limit exceeded"): the scan's too-large.
    `StreamMaxLength ${values.streamMax}`,
    // MaxFileSize applies to each part an archive (an XLSX) unpacks to as well, and clamd skips a
    // larger part without a word even with AlertExceedsMax: so it is as large as MaxScanSize, the
    // room for all that a file unpacks to, past which AlertExceedsMax makes a finding
    // (Heuristics.Limits.Exceeded.*) instead of a silent OK.
    `MaxFileSize ${4 * values.streamMax}`,
    `MaxScanSize ${4 * values.streamMax}`,
    "AlertExceedsMax yes",
    "ScanArchive yes",
    "ScanPDF yes",
    "ScanOLE2 yes",
    // Only RELOAD loads new signatures: a test that writes the database decides when they apply.
    "SelfCheck 0",
    "",
  ].join("\n");
}
