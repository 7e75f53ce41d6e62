import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { WORKER_NODE_FLAGS } from "../../src/stack/worker-node-flags.js";

/** `entry` run with tsx as a child process (the worker with its heap flags), its stdout and stderr appended to `logFile`. */
export function spawnLogged(root: string, env: Record<string, string>, entry: string, logFile: string): ChildProcess {
  const log = createWriteStream(logFile, { flags: "a" });
  const flags = entry === "src/main/worker.ts" ? WORKER_NODE_FLAGS : [];
  const child = spawn(process.execPath, [...flags, "--import", "tsx", entry], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  return child;
}

/** Resolves when the child prints `marker` (its "started" line); rejects if it exits first or after `timeoutMs`. */
export function waitForLine(child: ChildProcess, marker: string, timeoutMs: number, name: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs / 1000} s`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      if (!chunk.toString().includes(marker)) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      resolve();
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} during start`));
    });
  });
}

/** Runs the API server and the worker as real processes; tests can kill and restart them. */
export class ProcessSupervisor {
  private children = new Map<string, ChildProcess>();
  private control?: http.Server;

  constructor(
    private readonly root: string,
    private readonly env: Record<string, string>,
    private readonly logDir: string,
  ) {}

  private spawn(name: "api" | "worker", entry: string): ChildProcess {
    const child = spawnLogged(this.root, this.env, entry, path.join(this.logDir, `${name}.log`));
    this.children.set(name, child);
    return child;
  }

  async startApi(): Promise<void> {
    const child = this.spawn("api", "src/main/server.ts");
    await this.waitForHttp(child, `http://127.0.0.1:${this.env.PORT}/readyz`, 90_000);
  }

  async startWorker(): Promise<void> {
    const child = this.spawn("worker", "src/main/worker.ts");
    await waitForLine(child, "worker started", 120_000, "worker");
  }

  /** SIGKILL: the process gets no chance to finish anything, as in a crash; SIGTERM: a deploy. */
  async kill(name: "api" | "worker", signal: "SIGKILL" | "SIGTERM" = "SIGKILL"): Promise<void> {
    const child = this.children.get(name);
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    await exited;
    this.children.delete(name);
  }

  /** SIGSTOP / SIGCONT: the process holds still (its calls, activities and heartbeats with it) until resumed. */
  signal(name: "api" | "worker", signal: "SIGSTOP" | "SIGCONT"): void {
    const child = this.children.get(name);
    if (!child || child.exitCode !== null) throw new Error(`${name} is not running`);
    child.kill(signal);
  }

  async stopAll(): Promise<void> {
    this.control?.close();
    await Promise.all(
      [...this.children.values()].map(async (child) => {
        if (child.exitCode !== null) return;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 8000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  /** Until `url` answers OK; a child that exits meanwhile (a port taken, a bad setting) fails it at once. */
  private async waitForHttp(child: ChildProcess, url: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the API server exited (${child.exitCode ?? child.signalCode}) before ${url} answered (see ${this.logDir})`);
      }
      const ok = await fetch(url).then((r) => r.ok, () => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${url} not ready within ${timeoutMs} ms (see ${this.logDir})`);
  }

  /**
   * POST /{api|worker}/{kill|term|start|pause|resume} and /{postgres|minio|temporal}/{stop|start}: used by fault
   * tests, which run in other processes than this supervisor.
   */
  async listenControl(services: Record<string, { stop(): Promise<void>; start(): Promise<void> } | undefined> = {}): Promise<string> {
    this.control = http.createServer((req, res) => {
      const [, name, action] = (req.url ?? "").split("/");
      const run = async () => {
        const service = services[name];
        if (service && (action === "stop" || action === "start")) return service[action]();
        if (name !== "api" && name !== "worker") throw new Error("unknown process");
        if (action === "kill") await this.kill(name);
        else if (action === "term") await this.kill(name, "SIGTERM");
        else if (action === "pause" || action === "resume") this.signal(name, action === "pause" ? "SIGSTOP" : "SIGCONT");
        else if (action === "start") await (name === "api" ? this.startApi() : this.startWorker());
        else throw new Error("unknown action");
      };
      run().then(
        () => res.writeHead(204).end(),
        (error: Error) => res.writeHead(500).end(error.message),
      );
    });
    await new Promise<void>((resolve) => this.control!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.control.address() as AddressInfo).port}`;
  }
}
