/**
 * Messages between the uploads-peers group and its client processes (client-process.ts), over
 * Node's IPC channel. A turn runs `clients` closed-loop clients of one engine until `seconds` have
 * passed; the process answers with what they did and the CPU it used meanwhile.
 */
import type { UploadStepTimes } from "../uploads.js";
import type { EngineName, PayloadSize } from "./engines.js";

/** Set by the parent in BENCH_PEER_CLIENT (JSON) for each client process. */
export interface ClientSetup {
  apiUrl: string;
  tenant: string;
  token: string;
  tusdFilesUrl: string;
  floor: { taskQueue: string; tenant: string };
}

export type ToClient =
  | { type: "turn"; id: number; engine: EngineName; size: PayloadSize; seconds: number; clients: number }
  | { type: "warm-up"; id: number; engine: EngineName; size: PayloadSize };

export interface ClientTally {
  uploads: number;
  errors: number;
  firstError?: string;
  notReady: { objectId: string; status: string }[];
  workflowIds: string[];
  /** Ours only: the sum of each call's time over all uploads (initiate, PUT, complete). */
  steps: UploadStepTimes;
  /** The process's user + system CPU over the turn. */
  cpuMs: number;
}

export type FromClient = { type: "ready" } | { type: "done"; id: number; tally: ClientTally } | { type: "failed"; id: number; error: string };

export const emptyClientTally = (): ClientTally => ({ uploads: 0, errors: 0, notReady: [], workflowIds: [], steps: { initiateMs: 0, putMs: 0, completeMs: 0 }, cpuMs: 0 });

/** Adds one upload's (or one tally's) call times into `into`. */
export function addSteps(into: UploadStepTimes, part: UploadStepTimes): void {
  into.initiateMs += part.initiateMs;
  into.putMs += part.putMs;
  into.completeMs += part.completeMs;
}

/** Adds `part` into `into` (the tallies of several processes, or of several turns). */
export function addClientTally(into: ClientTally, part: ClientTally): void {
  into.uploads += part.uploads;
  into.errors += part.errors;
  into.firstError ??= part.firstError;
  into.notReady.push(...part.notReady);
  into.workflowIds.push(...part.workflowIds);
  addSteps(into.steps, part.steps);
  into.cpuMs += part.cpuMs;
}
