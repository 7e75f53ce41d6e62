/**
 * Per-component log files under `<dataDir>/logs`. Child output goes to a file rather than the
 * terminal so the stack CLI stays readable; when something does not come up, the last lines of
 * its file are put into the error message instead.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";

export type Log = (line: string) => void;

export function logFilePath(logDir: string, name: string): string {
  mkdirSync(logDir, { recursive: true });
  return path.join(logDir, `${name}.log`);
}

/** A separator per start, so a log kept across restarts shows where each run begins. */
export function appendStartMarker(file: string, what: string): void {
  appendFileSync(file, `\n===== ${new Date().toISOString()} ${what}\n`);
}

/** The last `lines` lines of a log; reads only its tail because server logs grow across runs. */
export async function tailFile(file: string, lines = 25, maxBytes = 64 * 1024): Promise<string> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch {
    return "(no log file)";
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const all = buffer.toString("utf8").split(/\r?\n/);
    while (all.length > 0 && all[all.length - 1] === "") all.pop();
    return all.slice(-lines).join("\n");
  } finally {
    await handle.close();
  }
}

/** An error for a component that did not come up, carrying the tail of its log. */
export async function startupError(what: string, problem: string, file: string): Promise<Error> {
  const tail = await tailFile(file);
  const indented = tail.split("\n").map((line) => `    ${line}`).join("\n");
  return new Error(`${what} did not start: ${problem}\n  last lines of ${file}:\n${indented}`);
}
