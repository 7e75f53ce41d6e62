/**
 * The uploads-peers group's client processes (client-process.ts): each engine's clients run in
 * processes of their own, several of them, so that no engine is held back by one bench process's
 * single thread and the bench's own work (reading /proc, scraping metrics) is never charged to an
 * engine. A turn's clients are spread evenly over the processes.
 */
import { fork, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import path from "node:path";
import { addClientTally, emptyClientTally, type ClientSetup, type ClientTally, type FromClient, type ToClient } from "./client-protocol.js";
import type { EngineName, PayloadSize } from "./engines.js";

const START_TIMEOUT_MS = 60_000;

/** A request without its id (which `ask` assigns), for each kind of request. */
type Request = ToClient extends infer T ? (T extends unknown ? Omit<T, "id"> : never) : never;

export interface ClientProcesses {
  /** One turn of `clients` clients of `engine` spread over the processes; the summed tally and the wall time until the last answered. */
  turn(engine: EngineName, size: PayloadSize, seconds: number, clients: number): Promise<{ tally: ClientTally; seconds: number }>;
  /** One upload by each process, not counted (connections, JIT). */
  warmUp(engine: EngineName, size: PayloadSize): Promise<void>;
  stop(): Promise<void>;
}

/** `clients` spread over `processes`: the first ones take one more when it does not divide. */
export function spreadClients(clients: number, processes: number): number[] {
  return Array.from({ length: processes }, (_, i) => Math.floor(clients / processes) + (i < clients % processes ? 1 : 0));
}

export async function startClientProcesses(options: { root: string; count: number; env: Record<string, string>; setup: ClientSetup; logDir: string }): Promise<ClientProcesses> {
  // The stack's NODE_OPTIONS may ask for CPU profiles of the API and worker (BENCH_CPU_PROF): not of the clients.
  const { NODE_OPTIONS: _profiles, ...env } = options.env;
  const children = await Promise.all(
    Array.from({ length: options.count }, (_, i) => startOne(options.root, { ...env, BENCH_PEER_CLIENT: JSON.stringify(options.setup) }, path.join(options.logDir, `peer-client-${i}.log`))),
  );
  let nextId = 0;
  const ask = (child: ChildProcess, message: Request) =>
    new Promise<ClientTally>((resolve, reject) => {
      const id = nextId++;
      const onMessage = (answer: FromClient) => {
        if (answer.type === "ready" || answer.id !== id) return;
        child.off("message", onMessage);
        child.off("exit", onExit);
        if (answer.type === "done") resolve(answer.tally);
        else reject(new Error(`client process ${child.pid}: ${answer.error}`));
      };
      const onExit = (code: number | null) => reject(new Error(`client process ${child.pid} exited with ${code} during a turn`));
      child.on("message", onMessage);
      child.once("exit", onExit);
      child.send({ ...message, id } as ToClient);
    });
  return {
    async turn(engine, size, seconds, clients) {
      const shares = spreadClients(clients, children.length);
      const started = performance.now();
      const parts = await Promise.all(children.flatMap((child, i) => (shares[i]! > 0 ? [ask(child, { type: "turn", engine, size, seconds, clients: shares[i]! })] : [])));
      const elapsed = (performance.now() - started) / 1000;
      const tally = emptyClientTally();
      for (const part of parts) addClientTally(tally, part);
      return { tally, seconds: elapsed };
    },
    async warmUp(engine, size) {
      await Promise.all(children.map((child) => ask(child, { type: "warm-up", engine, size })));
    },
    async stop() {
      await Promise.all(
        children.map((child) => {
          if (child.exitCode !== null || child.signalCode !== null) return undefined;
          const exited = new Promise((resolve) => child.once("exit", resolve));
          child.disconnect();
          return exited;
        }),
      );
    },
  };
}

function startOne(root: string, env: Record<string, string>, logFile: string): Promise<ChildProcess> {
  const log = createWriteStream(logFile, { flags: "a" });
  const child = fork(path.join(root, "bench/uploads-peers/client-process.ts"), [], { cwd: root, env, execArgv: ["--import", "tsx"], stdio: ["ignore", "pipe", "pipe", "ipc"] });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`a bench client process did not start within ${START_TIMEOUT_MS / 1000} s (log: ${logFile})`)), START_TIMEOUT_MS);
    child.once("message", (message: FromClient) => {
      if (message.type !== "ready") return;
      clearTimeout(timer);
      resolve(child);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`a bench client process exited with ${code} during start (log: ${logFile})`));
    });
  });
}
