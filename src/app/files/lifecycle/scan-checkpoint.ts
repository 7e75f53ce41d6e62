import type { Checkpoint } from "../../../domain/files/checks/checkpoint.js";

/** What the scan activity reports to, and hears from, whoever runs it (Temporal's activity context). */
export interface ScanAttempt {
  /** Liveness, with the bytes read so far: an attempt silent past the heartbeat timeout is run again elsewhere. */
  heartbeat(bytesRead: number): void;
  /** Aborted when this attempt was superseded (cancelled, or its heartbeat timed out): its work is wasted. */
  signal?: AbortSignal;
}

/**
 * The checkpoint the scan awaits between slices of its work. It lets the event loop run (a macrotask
 * turn, not a microtask: timers, sockets and the SDK's own heartbeats run too), heartbeats, and
 * throws the abort reason once the attempt was superseded, which ends the scan.
 */
export function scanCheckpoint(attempt: ScanAttempt, bytesRead: () => number): Checkpoint {
  return async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    attempt.signal?.throwIfAborted();
    attempt.heartbeat(bytesRead());
  };
}
