import { AppError } from "./errors.js";

/**
 * The call a use case serves, as far as the use case may know it: whether its deadline has passed.
 * A use case asks before each step it cannot take back (a workflow started, a row inserted), so a
 * call that expired changes nothing it can still avoid: its gRPC client has already reported
 * DEADLINE_EXCEEDED and will retry with a new call, which would otherwise find a second object.
 */
export interface CallScope {
  /** Aborted once the deadline passes or the caller goes away; for I/O that takes a signal. */
  readonly signal: AbortSignal;
  deadlinePassed(): boolean;
}

export function deadlineExceeded(): AppError {
  return new AppError("DEADLINE_EXCEEDED", "the call's deadline passed before its answer was ready");
}

/** Before a step the use case cannot take back; without a scope (no caller waiting) it never throws. */
export function ensureBeforeDeadline(call: CallScope | undefined): void {
  if (call?.deadlinePassed()) throw deadlineExceeded();
}
