/**
 * A server child process whose output goes to its log file, and that can be stopped politely:
 * SIGTERM (or the server's own "stop now" signal), then SIGKILL after a grace period.
 *
 * Each child runs in its own process group: Ctrl-C in a terminal sends SIGINT to the whole
 * foreground group, and a child that got it too would stop on its own (MinIO exits 0, PostgreSQL
 * shuts down) before the API and worker have let go of it, and look like a crash to us. Only this
 * process stops them, in order.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { appendStartMarker, logFilePath, type Log } from "./log-file.js";

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: Error;
}

export interface ChildOptions {
  /** Also the log file name: `<logDir>/<name>.log`. */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  logDir: string;
  log: Log;
  /** Milliseconds between the stop signal and SIGKILL. */
  stopGraceMs?: number;
  /** The signal that stops the server promptly; SIGTERM unless the server reads it otherwise. */
  stopSignal?: NodeJS.Signals;
  /** Run as this user and group (PostgreSQL refuses root). */
  uid?: number;
  gid?: number;
}

export interface Child {
  readonly name: string;
  readonly logFile: string;
  readonly pid: number | undefined;
  /** Settles when the process has exited (or could not be spawned). */
  readonly exited: Promise<ExitInfo>;
  /** Set once the process has exited. */
  exitInfo(): ExitInfo | undefined;
  stop(): Promise<void>;
}

const DEFAULT_STOP_GRACE_MS = 10_000;

export function describeExit(info: ExitInfo): string {
  if (info.error) return info.error.message;
  return info.signal ? `killed by ${info.signal}` : `exit code ${info.code}`;
}

export function spawnLogged(options: ChildOptions): Child {
  const logFile = logFilePath(options.logDir, options.name);
  appendStartMarker(logFile, `${options.command} ${options.args.join(" ")}`);
  // The child writes straight into the file (no pipe through this process), so its output is
  // kept even if this process dies, and a slow reader here can never block the server.
  const fd = openSync(logFile, "a");
  let child: ChildProcess;
  try {
    child = spawn(options.command, options.args, {
      env: options.env ?? process.env,
      stdio: ["ignore", fd, fd],
      detached: true,
      uid: options.uid,
      gid: options.gid,
    });
  } finally {
    closeSync(fd);
  }

  let info: ExitInfo | undefined;
  let stopping = false;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once("error", (error) => {
      info ??= { code: null, signal: null, error };
      resolve(info);
    });
    child.once("exit", (code, signal) => {
      info ??= { code, signal };
      resolve(info);
    });
  });
  exited.then((exit) => {
    if (!stopping) options.log(`${options.name} exited unexpectedly (${describeExit(exit)}); see ${logFile}`);
  });
  const stopSignal = options.stopSignal ?? "SIGTERM";
  killWhenParentExits(child, stopSignal);

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping = true;
    stopped ??= (async () => {
      if (info) return;
      child.kill(stopSignal);
      const grace = options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), grace);
      });
      const first = await Promise.race([exited, timedOut]);
      clearTimeout(timer);
      if (first === "timeout") {
        options.log(`${options.name} did not stop within ${grace} ms after ${stopSignal}; sending SIGKILL`);
        child.kill("SIGKILL");
        await exited;
      }
    })();
    return stopped;
  };

  return { name: options.name, logFile, pid: child.pid, exited, exitInfo: () => info, stop };
}

/**
 * Last resort for children that are still running when this process exits without having
 * stopped them (process.exit elsewhere, an uncaught error): send them their stop signal so they
 * do not outlive us (being in their own process groups, nothing else would reach them). Installed on the first spawn rather than at import so that merely importing the
 * library changes nothing. Orderly shutdown on SIGINT/SIGTERM is the CLI's job; nothing helps
 * if this process is SIGKILLed.
 */
const running = new Map<ChildProcess, NodeJS.Signals>();
let exitHookInstalled = false;

function killWhenParentExits(child: ChildProcess, signal: NodeJS.Signals): void {
  running.set(child, signal);
  child.once("exit", () => running.delete(child));
  child.once("error", () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const [each, signal] of running) each.kill(signal);
  });
}
