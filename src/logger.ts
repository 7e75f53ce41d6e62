import { pino, type Logger } from "pino";

/** Structured JSON logs on stdout; every line of a request carries its requestId. */
export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime });
}

export type { Logger };
