import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { findFreePort } from "../../../src/stack/free-port.js";

export interface RunningRedis {
  url: string;
  stop(): Promise<void>;
}

/** Whether a redis-server binary is on PATH (the Redis variants of the tests need one). */
export const hasRedisServer = spawnSync("redis-server", ["--version"]).status === 0;

/** A throwaway redis-server on a free loopback port, without persistence. */
export async function startRedis(): Promise<RunningRedis> {
  const port = await findFreePort();
  const child: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  const url = `redis://127.0.0.1:${port}`;
  const { Redis } = await import("ioredis");
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on("error", () => undefined);
  for (let i = 0; ; i++) {
    try {
      await probe.connect();
      await probe.ping();
      break;
    } catch (error) {
      if (i > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  probe.disconnect();
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
