import { mkdirSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { findFreePort } from "../../src/stack/free-port.js";
import { ProcessSupervisor } from "./process-supervisor.js";

export interface ProcessPair {
  baseUrl: string;
  supervisor: ProcessSupervisor;
  logDir: string;
}

/**
 * An API server and a worker of a test's own against the suite's stack: their own port and task
 * queue, no schedules (the suite's worker owns them), and the test's settings over the suite's.
 */
export async function startProcessPair(name: string, env: Record<string, string>, logDir?: string): Promise<ProcessPair> {
  const port = await findFreePort();
  const dir = logDir ?? path.join(process.cwd(), ".test-data", `${name}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const supervisor = new ProcessSupervisor(
    process.cwd(),
    // METRICS_PORT 0: any free port, the suite's API holds its own.
    { ...inject("stackEnv"), PORT: String(port), METRICS_PORT: "0", TEMPORAL_TASK_QUEUE: `${name}-${process.pid}`, WORKER_SCHEDULES: "false", ...env },
    dir,
  );
  await supervisor.startApi();
  await supervisor.startWorker();
  return { baseUrl: `http://127.0.0.1:${port}`, supervisor, logDir: dir };
}
