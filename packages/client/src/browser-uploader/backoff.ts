import { CancelledError } from "./errors.js";
import { waitUntilOnline, type Clock, type NetworkStatus } from "./runtime.js";

export interface RetryPolicy {
  /** Attempts per step, the first one included. 1 disables retries. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 15_000 };

/**
 * Exponential backoff with full jitter: a uniformly random delay in [0, min(max, base * 2^(n-1))]
 * before retry n. Spreading retries over the whole window keeps many clients that failed together
 * from coming back together.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

export interface RetryContext {
  policy: RetryPolicy;
  clock: Clock;
  random: () => number;
  network: NetworkStatus;
  signal: AbortSignal;
  isTransient(error: unknown): boolean;
  onRetry?(info: { attempt: number; delayMs: number; error: unknown }): void;
}

/**
 * Runs `operation` until it succeeds, fails permanently, or used `maxAttempts`. Waiting for the
 * network (while offline) does not count as an attempt. Cancellation wins over everything.
 */
export async function withRetry<T>(operation: (attempt: number) => Promise<T>, context: RetryContext): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    if (context.signal.aborted) throw new CancelledError();
    try {
      return await operation(attempt);
    } catch (error) {
      if (context.signal.aborted) throw new CancelledError();
      if (!context.isTransient(error) || attempt >= context.policy.maxAttempts) throw error;
      const delayMs = backoffDelay(attempt, context.policy, context.random);
      context.onRetry?.({ attempt, delayMs, error });
      await context.clock.sleep(delayMs, context.signal);
      await waitUntilOnline(context.network, context.signal);
    }
  }
}
