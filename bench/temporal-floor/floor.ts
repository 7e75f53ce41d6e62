/**
 * The Temporal floor as a peer of the upload engine: its worker as a child process of the bench
 * (so bench/proc-cpu.ts counts it as `floor`). Its uploads are made by the bench's client
 * processes (floor-upload.ts), whose CPU is reported apart from the stack's.
 */
import path from "node:path";
import { spawnLogged, waitForLine } from "../../test/support/process-supervisor.js";
import type { FloorTarget } from "./floor-upload.js";

const START_TIMEOUT_MS = 120_000;

export interface TemporalFloor {
  target: FloorTarget;
  stop(): Promise<void>;
}

export async function startTemporalFloor(root: string, env: Record<string, string>, logDir: string): Promise<TemporalFloor> {
  const taskQueue = `bench-floor-${process.pid}`;
  const child = spawnLogged(root, { ...env, FLOOR_TASK_QUEUE: taskQueue }, "bench/temporal-floor/worker.ts", path.join(logDir, "temporal-floor-worker.log"));
  await waitForLine(child, "floor worker started", START_TIMEOUT_MS, "the Temporal floor's worker");
  return {
    target: { taskQueue, tenant: `bench-floor-${process.pid}` },
    async stop() {
      // A worker that already exited (it crashed during the run) has nothing to wait for.
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
