import { pino, type Logger } from "pino";
import { prettyDestination } from "./pretty-log.js";

/** `json` for collectors; `pretty` (pretty-log.ts) for a person at a terminal. */
export type LogFormat = "json" | "pretty";

/**
 * Structured logs on stdout; every line of a request carries its requestId. Without a format
 * (LOG_FORMAT unset): pretty when stdout is a terminal, JSON lines otherwise.
 */
export function createLogger(level: string, name: string, format?: LogFormat): Logger {
  const options = { level, name, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime };
  const pretty = (format ?? (process.stdout.isTTY ? "pretty" : "json")) === "pretty";
  return pretty ? pino(options, prettyDestination(process.stdout)) : pino(options);
}

export type { Logger };
