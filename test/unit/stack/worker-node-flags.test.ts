/**
 * The worker's heap flags that only a command line can set (src/stack/worker-node-flags.ts) are passed by
 * every launcher this project ships: the npm scripts and the supervisor of the test and bench
 * stacks.
 */
import { readFileSync } from "node:fs";
import { once } from "node:events";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { WORKER_NODE_FLAGS } from "../../../src/stack/worker-node-flags.js";
import { spawnLogged } from "../../support/process-supervisor.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

/** The arguments the supervisor starts `entry` with (the child, given no configuration, is stopped at once). */
async function supervisorArgs(entry: string): Promise<string[]> {
  const child = spawnLogged(root, { PATH: process.env.PATH ?? "" }, entry, "/dev/null");
  const args = child.spawnargs;
  child.kill("SIGKILL");
  await once(child, "exit");
  return args;
}

describe("the worker's node flags", () => {
  it.each(["worker", "start"])("are on the npm script %s", (name) => {
    for (const flag of WORKER_NODE_FLAGS) expect(scripts[name]).toContain(` ${flag} `);
  });

  it("are passed by the supervisor of the test and bench stacks to the worker, not to the API", async () => {
    expect(await supervisorArgs("src/main/worker.ts")).toEqual(expect.arrayContaining([...WORKER_NODE_FLAGS]));
    const api = await supervisorArgs("src/main/server.ts");
    for (const flag of WORKER_NODE_FLAGS) expect(api).not.toContain(flag);
  });
});
