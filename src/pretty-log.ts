/**
 * Pino's JSON lines as a person reads them in a terminal: `12:03:04.567 INFO  message key=value`.
 * Ours rather than pino-pretty: a dozen lines, no worker-thread transport, no dependency. Fields
 * every line carries (service, time, level) are left out; an error's stack follows, indented.
 */
import type { DestinationStream } from "pino";

const LEVELS: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };
const IMPLIED = new Set(["time", "level", "msg", "service", "name", "err"]);

export function formatLogLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.trimEnd();
  }
  const time = typeof entry.time === "string" ? entry.time.slice(11, 23) : "";
  const level = (LEVELS[Number(entry.level)] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key, value]) => !IMPLIED.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${show(value)}`);
  const line = [time, level, String(entry.msg ?? ""), ...fields].filter((part) => part !== "").join(" ");
  const err = entry.err as { message?: string; stack?: string } | undefined;
  if (!err) return line;
  const stack = (err.stack ?? err.message ?? JSON.stringify(err)).split("\n").map((each) => `    ${each}`);
  return [line, ...stack].join("\n");
}

function show(value: unknown): string {
  if (typeof value === "string") return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/** A pino destination that writes each line formatted to `out`. */
export function prettyDestination(out: NodeJS.WritableStream): DestinationStream {
  return { write: (line: string) => void out.write(`${formatLogLine(line)}\n`) };
}
