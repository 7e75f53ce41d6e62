/**
 * Awaited by a scan between bounded slices of its work. The worker's checkpoint yields to the
 * event loop (other activities, heartbeats and timers run), reports liveness, and throws when the
 * attempt was superseded; whatever it throws ends the scan and propagates out of it unchanged.
 */
export type Checkpoint = () => Promise<void>;

/** No pause: the scan runs to its end in one go (tests, benchmarks, small inline scans). */
export const NO_CHECKPOINT: Checkpoint = () => Promise.resolve();
