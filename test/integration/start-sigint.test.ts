/**
 * `npm start` and Ctrl-C, as in a terminal: the whole embedded stack (PostgreSQL, MinIO, Temporal,
 * Redis) plus the API and worker in a fresh data directory on free ports, then SIGINT to the
 * whole process group, which is what a terminal's Ctrl-C does. Everything must be gone within
 * 10 s, and nothing may report an unexpected exit or a stop that timed out. (It does not use the
 * suite's shared stack; it starts its own, which takes most of its run time.)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_PORTS } from "../../src/stack/ports.js";
import { findFreePort } from "../../src/stack/free-port.js";
import { npmScriptCommand } from "../support/npm-script.js";

const root = process.cwd();

/** Alive, as /proc tells it: a zombie has finished and is only waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    return statOf(pid).state !== "Z";
  } catch {
    return false;
  }
}

function statOf(pid: number): { ppid: number; state: string } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")".
  const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { state, ppid: Number(ppid) };
}

/** `pid` and all its descendants, from the ppid chains in /proc. */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const { ppid } = statOf(Number(entry));
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone while we looked.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

describe("npm start, then Ctrl-C", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "start-sigint-"));
  let tree: number[] = [];
  let start: ChildProcess | undefined;

  afterAll(() => {
    // A failed run must not leave servers behind.
    if (start?.pid && alive(start.pid)) process.kill(-start.pid, "SIGKILL");
    for (const pid of tree) if (alive(pid)) process.kill(pid, "SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  // The timeout covers starting the whole embedded stack (initdb included) and bundling the workflows.
  it("stops every process within 10 s, one line per component and no false alarm", { timeout: 180_000 }, async () => {
    const avoid = Object.values(DEFAULT_PORTS).map((each) => each.port);
    const port = async () => String(await findFreePort({ avoid }));
    // Nothing of the suite's stack or the caller's: this start brings up all of its own.
    const inherited = Object.entries(process.env).filter(
      ([name]) => !/^(DATABASE_URL|STORAGE_|TEMPORAL_|REDIS_URL|CLAMD_|PORT$|METRICS_|AUTH_|STACK_|LOG_)/.test(name),
    );
    const env = {
      ...Object.fromEntries(inherited),
      // As `npm start` runs it: the project's Node (node_modules/.bin/node) first on PATH.
      PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`,
      STACK_DATA_DIR: dataDir,
      STACK_POSTGRES_PORT: await port(),
      STACK_MINIO_PORT: await port(),
      STACK_MINIO_CONSOLE_PORT: await port(),
      STACK_TEMPORAL_PORT: await port(),
      STACK_TEMPORAL_UI_PORT: await port(),
      STACK_REDIS_PORT: await port(),
      STACK_CLAMD_PORT: await port(),
      PORT: await port(),
      METRICS_PORT: await port(),
    };
    // Its own process group, as a terminal's foreground job: Ctrl-C signals the group.
    // npm start's own command line (node, never tsx's CLI, whose signal relay kills a busy child).
    const [command, ...args] = npmScriptCommand(root, "start");
    const child = spawn(command, args, {
      cwd: root,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    start = child;
    let output = "";
    const ready = new Promise<void>((resolve, reject) => {
      const take = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        if (/^ready$/m.test(output)) resolve();
      };
      child.stdout!.on("data", take);
      child.stderr!.on("data", take);
      child.once("exit", (code, signal) => reject(new Error(`npm start exited before ready (${code ?? signal}):\n${output}`)));
    });
    await ready;

    tree = processTree(child.pid!);
    // The app, and at least PostgreSQL, MinIO, Temporal, Redis and clamd.
    expect(tree.length, output).toBeGreaterThanOrEqual(6);

    process.kill(-child.pid!, "SIGINT");
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), 10_000)));
    const outcome = await Promise.race([exited(child).then(() => "exited" as const), deadline]);
    clearTimeout(timer);

    expect(outcome, output).toBe("exited");
    expect(tree.filter(alive), output).toEqual([]);
    expect(output).not.toMatch(/unexpected|did not stop/i);
    for (const component of ["API", "worker", "PostgreSQL", "MinIO", "Temporal", "Redis", "clamd"]) {
      expect(output).toContain(`${component}: stopped`);
    }
    expect(output).toMatch(/^stopped$/m);
    expect(existsSync(path.join(dataDir, "postgres", "PG_VERSION"))).toBe(true);
  });
});
