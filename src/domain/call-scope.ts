import { AppError } from "./errors.js";

/**
 * The call a use case serves, as far as the use case may know it: whether its deadline has passed.
 * A use case asks before each step it cannot take back (a workflow started, a row inserted), so a
 * call that expired changes nothing it can still avoid: its gRPC client has already reported
 * DEADLINE_EXCEEDED and will retry with a new call, which would otherwise find a second object.
 * The same scope goes to the ports whose I/O it bounds (the signal for S3 and Temporal, the
 * remaining time for PostgreSQL, which takes no signal).
 */
export interface CallScope {
  /** Aborted once the deadline passes or the caller goes away; for I/O that takes a signal. */
  readonly signal: AbortSignal;
  deadlinePassed(): boolean;
  /** Milliseconds left before the deadline (0 once passed); undefined when the call has none. */
  remainingMs(): number | undefined;
}

/** `cause`: what the dependency threw when the deadline cut it off, for the log. */
export function deadlineExceeded(cause?: unknown): AppError {
  return new AppError("DEADLINE_EXCEEDED", "the call's deadline passed before its answer was ready", { cause });
}

/** Before a step the use case cannot take back; without a scope (no caller waiting) it never throws. */
export function ensureBeforeDeadline(call: CallScope | undefined): void {
  if (call?.deadlinePassed()) throw deadlineExceeded();
}

/**
 * What a failed dependency call means to the caller: once the deadline has passed, whatever the
 * dependency threw (an AbortError, Temporal's cancellation, a statement cancelled by its timeout,
 * or the adapter's translation of them) is the deadline, and answers and counts as such. Before
 * the deadline, or for a caller that went away, the error stays what it is.
 */
export function mapDeadline(call: CallScope | undefined, error: unknown): unknown {
  if (error instanceof AppError && error.reason === "DEADLINE_EXCEEDED") return error;
  return call?.deadlinePassed() ? deadlineExceeded(error) : error;
}

/** `work` (I/O bounded by the call), its failures read through mapDeadline. */
export async function withinDeadline<T>(call: CallScope | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw mapDeadline(call, error);
  }
}
