/**
 * `npm run stack`: starts PostgreSQL, MinIO and Temporal on loopback for whatever the
 * environment does not configure (data in ./.data or STACK_DATA_DIR, fixed default ports), prints where they are
 * and what to export (DEVELOPMENT_MODE=true included: a local stack is for development), then runs
 * until Ctrl-C / SIGTERM, which stops everything it started.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Stack } from "../stack/stack.js";
import { loadStack } from "../stack/load-stack.js";

const log = (line: string) => console.log(line);
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const dataDir = process.env.STACK_DATA_DIR?.trim() || path.join(process.cwd(), ".data");

const { startStack } = await loadStack();

const startedAt = Date.now();
const starting = startStack({ projectRoot, dataDir, env: process.env, ports: "defaults", log });

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  // Repeats are ignored rather than taken as "exit now": Ctrl-C reaches this process twice
  // (once from the terminal, once relayed by tsx), and stopping is bounded anyway (SIGKILL after
  // a grace period), so waiting never leaves a server behind.
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping…`);
  // A signal during start-up waits for the start to finish (or fail) so nothing is left behind.
  const stack = await starting.catch(() => undefined);
  await stack?.stop();
  log("stopped");
  process.exit(0);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, (received) => void shutdown(received));

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

function report(stack: Stack): void {
  log("");
  const width = Math.max(0, ...stack.components.map((component) => component.name.length));
  for (const component of stack.components) log(`${component.name.padEnd(width)}  ${component.address}`);
  log("");
  log(`data: ${dataDir} (logs in ${path.join(dataDir, "logs")})`);
  log("environment for the API server and worker:");
  const exports = { DEVELOPMENT_MODE: process.env.DEVELOPMENT_MODE?.trim() || "true", ...stack.env };
  for (const [name, value] of Object.entries(exports)) log(`export ${name}=${shellQuote(value)}`);
  log(`started in ${((Date.now() - startedAt) / 1000).toFixed(1)} s; Ctrl-C stops everything`);
  log("ready");
}

try {
  const stack = await starting;
  if (!stopping) report(stack);
} catch (error) {
  // During a shutdown, shutdown() finishes the process.
  if (!stopping) {
    log(`stack failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
