/**
 * Redis for the custom field definition cache: Debian's `redis-server` on loopback, without
 * persistence (the cache is rebuilt from PostgreSQL on a miss, so nothing in it needs to survive
 * a restart). The binary is Debian's package, as for Chromium: installed with apt-get when it is
 * missing and this process may (root on Debian), otherwise the start says how to get it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { createConnection } from "node:net";
import type { Log } from "./log-file.js";
import { spawnLogged } from "./process.js";
import { waitUntilReady } from "./readiness.js";

export interface RedisOptions {
  binary: string;
  dataDir: string;
  port: number;
  logDir: string;
  log: Log;
  startTimeoutMs?: number;
}

export interface RunningRedis {
  url: string;
  stop(): Promise<void>;
}

const PACKAGE = "redis-server";

/** The redis-server binary on PATH; installs Debian's package first when missing and allowed. */
export function ensureRedisServer(log: Log): string {
  if (onPath()) return PACKAGE;
  const root = process.getuid?.() === 0;
  if (!root || !existsSync("/usr/bin/apt-get")) {
    throw new Error(
      "redis-server is needed for the definition cache: install Debian's package (sudo apt-get install redis-server), or set REDIS_URL to use a running Redis",
    );
  }
  log("Redis: installing Debian's redis-server (first run only)…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "ignore", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", PACKAGE], { stdio: "ignore", env });
  if (!onPath()) throw new Error(`apt-get installed ${PACKAGE}, yet redis-server is not on PATH`);
  return PACKAGE;
}

function onPath(): boolean {
  return spawnSync(PACKAGE, ["--version"]).status === 0;
}

export async function startRedis(options: RedisOptions): Promise<RunningRedis> {
  mkdirSync(options.dataDir, { recursive: true });
  const child = spawnLogged({
    name: "redis",
    command: options.binary,
    // --save "" and no AOF: a cache only; dir keeps any file Redis might write inside dataDir.
    args: ["--port", String(options.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", options.dataDir],
    logDir: options.logDir,
    log: options.log,
  });
  await waitUntilReady({
    what: "Redis",
    child,
    timeoutMs: options.startTimeoutMs ?? 20_000,
    intervalMs: 50,
    check: () => answersPing(options.port),
  });
  return { url: `redis://127.0.0.1:${options.port}`, stop: child.stop };
}

/**
 * One PING over RESP, without a client library: true when the server answers +PONG.
 *
 * The timeout gives up only after the event loop has polled once more: when this process was busy
 * for longer than the timeout (a loaded machine, modules compiling in the same process), the timer
 * runs before the I/O phase that would deliver an answer already waiting in the socket, and every
 * attempt would fail against a Redis that had answered at once.
 */
export function answersPing(port: number, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    socket.setTimeout(timeoutMs, () => setImmediate(() => socket.destroy(new Error("no answer to PING"))));
    socket.once("error", reject);
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => {
      socket.end();
      resolve(data.toString("latin1").startsWith("+PONG"));
    });
  });
}
