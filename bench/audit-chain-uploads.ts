/**
 * 100 KB uploads per second through the real API with the audit hash chain against the same
 * stack without it, in the same run: next to the bench stack's API and worker (AUDIT_HASH_CHAIN
 * on, the default) a second pair runs with AUDIT_HASH_CHAIN=off on a task queue of its own,
 * against the same PostgreSQL, MinIO and Temporal. Both pairs stay up throughout, so each turn
 * has the other pair idle beside it. An upload is initiate, PUT, complete with waitForResult
 * (bench/uploads.ts), each of one tenant per side; turns alternate, the order rotating.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { findFreePort } from "../src/stack/free-port.js";
import { ProcessSupervisor } from "../test/support/process-supervisor.js";
import { cpuDelta, cpuSnapshot } from "./proc-cpu.js";
import { photoPng } from "./scan-files.js";
import type { BenchStack } from "./stack.js";
import { throughput } from "./stats.js";
import { apiFor, progress, type Api } from "./support.js";
import { uploadThrough } from "./uploads.js";

export const UPLOAD_CLIENTS = 32;

export interface UploadSide {
  /** Uploads per second of each turn. */
  rates: number[];
  uploads: number;
  notReady: number;
  /** PostgreSQL CPU (all processes) over this side's turns. */
  postgresMs: number;
}

export interface UploadTurns {
  on: UploadSide;
  off: UploadSide;
  bytes: number;
}

/** The chain-off API and worker, beside the bench stack's own pair. */
async function startChainOffPair(root: string, stack: BenchStack): Promise<{ apiUrl: string; stop(): Promise<void> }> {
  const port = await findFreePort();
  const logDir = path.join(stack.dataDir, "logs", "chain-off");
  mkdirSync(logDir, { recursive: true });
  const env = {
    ...stack.env,
    AUDIT_HASH_CHAIN: "off",
    PORT: String(port),
    TEMPORAL_TASK_QUEUE: `${stack.env.TEMPORAL_TASK_QUEUE}-chain-off`,
    // The bench stack's worker owns the schedules.
    WORKER_SCHEDULES: "false",
  };
  const supervisor = new ProcessSupervisor(root, env, logDir);
  try {
    await supervisor.startApi();
    await supervisor.startWorker();
  } catch (error) {
    await supervisor.stopAll();
    throw error;
  }
  return { apiUrl: `http://127.0.0.1:${port}`, stop: () => supervisor.stopAll() };
}

export async function measureUploads(root: string, stack: BenchStack, seconds: number, rounds: number): Promise<UploadTurns> {
  progress("audit-chain: starting an API and a worker with AUDIT_HASH_CHAIN=off beside the stack's");
  const offPair = await startChainOffPair(root, stack);
  try {
    const apis: Record<"on" | "off", Api> = { on: await apiFor(stack.apiUrl, "bench-chain-up-on"), off: await apiFor(offPair.apiUrl, "bench-chain-up-off") };
    const png = photoPng();
    const result: UploadTurns = { on: { rates: [], uploads: 0, notReady: 0, postgresMs: 0 }, off: { rates: [], uploads: 0, notReady: 0, postgresMs: 0 }, bytes: png.length };
    let owner = 0;
    const upload = async (side: "on" | "off") => {
      const object = await uploadThrough(apis[side], { objectClass: "GENERAL_DOCUMENT", contentType: "image/png", bytes: png, filename: "photo.png", ownerEntityId: `chain-${owner++}` });
      result[side].uploads++;
      if (object.status !== "READY") result[side].notReady++;
    };
    for (const side of ["on", "off"] as const) for (let i = 0; i < 3; i++) await upload(side); // warm-up
    Object.assign(result.on, { uploads: 0, notReady: 0 });
    Object.assign(result.off, { uploads: 0, notReady: 0 });
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const)) {
        const before = cpuSnapshot();
        const rate = await throughput(seconds, UPLOAD_CLIENTS, () => upload(side));
        result[side].postgresMs += cpuDelta(before, cpuSnapshot()).postgres;
        result[side].rates.push(rate);
        progress(`audit-chain: 100 KB uploads, chain ${side}, round ${round + 1}/${rounds}: ${rate.toFixed(1)}/s`);
      }
    }
    return result;
  } finally {
    await offPair.stop();
  }
}
