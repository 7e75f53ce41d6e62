import type { Writable } from "node:stream";
import type { ApiClients } from "@files-and-fields/client/node";
import type { ProgressSink } from "./progress.js";

/** What a command may use: the typed clients and the two output streams, nothing global. */
export interface CliContext {
  clients: ApiClients;
  /** Results, for people or (with --json) for programs. */
  out(line: string): void;
  /** Raw bytes (download --out -). */
  stdout: Writable;
  /** Progress and notes. */
  err: ProgressSink;
  json: boolean;
  sleep(ms: number): Promise<void>;
}

/** A mistake in the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export const EXIT = { ok: 0, failed: 1, usage: 2, rejected: 3 } as const;
