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

export type TemporalMode = "dev" | "server";

export async function startBenchStack(root: string, overrides: Record<string, string>, temporalMode: TemporalMode = "dev"): Promise<BenchStack> {
  const dataDir = path.join(root, ".bench-data", `run-${process.pid}-${temporalMode}`);
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
    stack = await startStack({ projectRoot: root, dataDir, env: { ...clean, TEMPORAL_MODE: temporalMode }, ports: "free", log: () => undefined });
    const port = await findFreePort();
    // BENCH_CPU_PROF=dir: the API and the worker write V8 CPU profiles there when they exit
    // (NODE_OPTIONS reaches both; the file names carry the pid, logged below). BENCH_NODE_OPTIONS:
    // Node flags for those two only (a V8 tuning measured against a run without it).
    const profileDir = process.env.BENCH_CPU_PROF?.trim() ? path.resolve(process.env.BENCH_CPU_PROF.trim()) : undefined;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const env: Record<string, string> = {
      ...clean,
      ...stack.env,
      // The benchmarks sign development tokens, as `npm start` users do; metrics on any free port.
      DEVELOPMENT_MODE: "true",
      METRICS_PORT: "0",
      PORT: String(port),
      // The supervisor knows the worker is up from its "worker started" line, logged at info.
      LOG_LEVEL: "info",
      TEMPORAL_TASK_QUEUE: `bench-${process.pid}`,
      SHUTDOWN_GRACE_SECONDS: "3",
      NODE_OPTIONS: [clean.NODE_OPTIONS, process.env.BENCH_NODE_OPTIONS, profileDir ? `--cpu-prof --cpu-prof-dir="${profileDir}"` : undefined].filter(Boolean).join(" "),
      ...overrides,
    };
    supervisor = new ProcessSupervisor(root, env, path.join(dataDir, "logs"));
    progress("starting the API server and the worker (logs in " + path.join(dataDir, "logs") + ")");
    await supervisor.startApi();
    await supervisor.startWorker();
    if (profileDir) progress(`CPU profiles go to ${profileDir} when the stack stops: API pid ${childPid("src/main/server.ts")}, worker pid ${childPid("src/main/worker.ts")}`);
    return { apiUrl: `http://127.0.0.1:${port}`, env, dataDir, workerRssMb, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The supervisor keeps its children private, so the worker (the API) is found as this process's
 * child running src/main/worker.ts (src/main/server.ts), spawned directly with node, so the pid is
 * the process itself. bench/proc-cpu.ts finds the stack's processes the same way.
 */
function childPid(entry: string): number | undefined {
  const lines = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" }).split("\n");
  const line = lines.find((l) => l.includes(entry));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

function workerRssMb(): number | undefined {
  const pid = childPid("src/main/worker.ts");
  if (pid === undefined) return undefined;
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : undefined;
}
