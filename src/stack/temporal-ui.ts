/**
 * The Temporal Web UI server (github.com/temporalio/ui-server) beside the real Temporal server
 * (TEMPORAL_MODE=server); the dev server serves the same UI itself. Its config is written into
 * the data directory on every start: the frontend's address, loopback, the port.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Log } from "./log-file.js";
import { spawnLogged } from "./process.js";
import { waitUntilReady } from "./readiness.js";

export interface TemporalUiOptions {
  binary: string;
  /** The Temporal frontend, host:port. */
  temporalAddress: string;
  namespace: string;
  port: number;
  /** Holds config/stack.yaml. */
  dataDir: string;
  logDir: string;
  log: Log;
  startTimeoutMs?: number;
}

export interface RunningTemporalUi {
  url: string;
  stop(): Promise<void>;
}

export async function startTemporalUi(options: TemporalUiOptions): Promise<RunningTemporalUi> {
  const configDir = path.join(options.dataDir, "config");
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    path.join(configDir, "stack.yaml"),
    [
      "# Written by the stack (src/stack/temporal-ui.ts) on every start.",
      `temporalGrpcAddress: ${JSON.stringify(options.temporalAddress)}`,
      `host: "127.0.0.1"`,
      `port: ${options.port}`,
      "enableUi: true",
      `defaultNamespace: ${JSON.stringify(options.namespace)}`,
      "",
    ].join("\n"),
  );
  const url = `http://127.0.0.1:${options.port}`;
  const child = spawnLogged({
    name: "temporal-ui",
    command: options.binary,
    args: ["--root", options.dataDir, "--config", "config", "--env", "stack", "start"],
    logDir: options.logDir,
    log: options.log,
  });
  await waitUntilReady({
    what: "Temporal UI",
    child,
    timeoutMs: options.startTimeoutMs ?? 30_000,
    check: async () => (await fetch(`${url}/healthz`)).ok,
  });
  return { url, stop: child.stop };
}
