/**
 * The one real component the unit project needs: a redis-server on a free loopback port for the
 * Redis adapter's contract tests (test/unit/customfields-app/definition-cache.test.ts), started
 * from Debian's binary as the stack starts it (src/stack/redis.ts), so those tests never skip.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { findFreePort } from "../../src/stack/free-port.js";
import { ensureRedisServer, startRedis } from "../../src/stack/redis.js";

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "unit-redis-"));
  const quiet = process.env.TEST_STACK_VERBOSE ? (line: string) => console.log(line) : () => undefined;
  const redis = await startRedis({ binary: ensureRedisServer(quiet), dataDir, port: await findFreePort(), logDir: dataDir, log: quiet });
  project.provide("redisUrl", redis.url);
  return async () => {
    await redis.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** A redis-server of the unit project's own; its tests keep apart by tenant. */
    redisUrl: string;
  }
}
