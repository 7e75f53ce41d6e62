/**
 * The stack the benchmarks run against, started the way the integration suite starts it
 * (test/integration/global-setup.ts): PostgreSQL, MinIO and Temporal on free ports under
 * .bench-data/run-<pid>, then the API server and the worker as real child processes.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import path from "node:path";
import { findFreePort } from "../src/stack/free-port.js";
import { loadStack } from "../src/stack/load-stack.js";
import type { Stack } from "../src/stack/stack.js";
import { ProcessSupervisor } from "../test/support/process-supervisor.js";
import { progress } from "./support.js";

export interface BenchStack {
  apiUrl: string;
  /** The environment the API and worker run with (stack URLs, credentials, retention). */
  env: Record<string, string>;
  dataDir: string;
  /** The worker's resident set in MB, from /proc; undefined when it cannot be found. */
  workerRssMb(): number | undefined;
  stop(): Promise<void>;
}

export async function startBenchStack(root: string, overrides: Record<string, string>): Promise<BenchStack> {
  const dataDir = path.join(root, ".bench-data", `run-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(path.join(dataDir, "logs"), { recursive: true });
  // Whatever the caller's shell points at (a running `npm start`) must not be reused.
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k, v]) => v !== undefined && !/^(DATABASE_URL|STORAGE_|TEMPORAL_|REDIS_URL|PORT$)/.test(k)),
  ) as Record<string, string>;
  let stack: Stack | undefined;
  let supervisor: ProcessSupervisor | undefined;
  const stop = async () => {
    await supervisor?.stopAll().catch(() => undefined);
    await stack?.stop().catch(() => undefined);
    if (process.env.BENCH_KEEP_DATA) return;
    rmSync(dataDir, { recursive: true, force: true });
    // .bench-data itself goes too, unless another run is using it.
    if (readdirSync(path.dirname(dataDir)).length === 0) rmdirSync(path.dirname(dataDir));
  };
  try {
    const { startStack } = await loadStack();
    stack = await startStack({ projectRoot: root, dataDir, env: clean, ports: "free", log: () => undefined });
    const port = await findFreePort();
    const env: Record<string, string> = {
      ...clean,
      ...stack.env,
      NODE_ENV: "test",
      PORT: String(port),
      // The supervisor knows the worker is up from its "worker started" line, logged at info.
      LOG_LEVEL: "info",
      TEMPORAL_TASK_QUEUE: `bench-${process.pid}`,
      SHUTDOWN_GRACE_SECONDS: "3",
      ...overrides,
    };
    supervisor = new ProcessSupervisor(root, env, path.join(dataDir, "logs"));
    progress("starting the API server and the worker (logs in " + path.join(dataDir, "logs") + ")");
    await supervisor.startApi();
    await supervisor.startWorker();
    return { apiUrl: `http://127.0.0.1:${port}`, env, dataDir, workerRssMb, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The supervisor keeps its children private, so the worker is found as this process's child
 * running src/main/worker.ts (spawned directly with node, so the pid is the worker itself).
 */
function workerPid(): number | undefined {
  const lines = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" }).split("\n");
  const line = lines.find((l) => l.includes("src/main/worker.ts"));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

function workerRssMb(): number | undefined {
  const pid = workerPid();
  if (pid === undefined) return undefined;
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : undefined;
}
