import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { CallScope } from "../domain/call-scope.js";

/**
 * The handler's context as its use case may see it. The clock decides as well as the signal: the
 * deadline's timer runs only once the handler awaits something, and a deadline of 1 ms may have
 * passed before then.
 */
export function callScopeOf(ctx: HandlerContext): CallScope {
  return {
    signal: ctx.signal,
    deadlinePassed: () => {
      const remaining = ctx.timeoutMs();
      return (remaining !== undefined && remaining <= 0) || abortedByDeadline(ctx.signal);
    },
    remainingMs: () => {
      const remaining = ctx.timeoutMs();
      return remaining === undefined ? undefined : Math.max(0, remaining);
    },
  };
}

/**
 * Connect aborts a call's signal with DEADLINE_EXCEEDED when its timeout header runs out; a caller
 * that went away aborts it otherwise, and is not a deadline.
 */
export function abortedByDeadline(signal: AbortSignal): boolean {
  return signal.aborted && ConnectError.from(signal.reason).code === Code.DeadlineExceeded;
}
