/**
 * Waiting for a started server to answer. Fails early when the process has already exited
 * (a taken port, a bad flag) and on timeout, both times with the tail of the component's log.
 */
import { startupError } from "./log-file.js";
import { describeExit, type Child } from "./process.js";

export interface ReadinessOptions {
  what: string;
  child: Child;
  /** Resolves true when ready; false or a rejection means "not yet". */
  check: () => Promise<boolean>;
  timeoutMs: number;
  intervalMs?: number;
}

export async function waitUntilReady(options: ReadinessOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  const interval = options.intervalMs ?? 200;
  let lastProblem = "no answer yet";
  for (;;) {
    const exit = options.child.exitInfo();
    if (exit) {
      throw await startupError(options.what, `the process exited (${describeExit(exit)})`, options.child.logFile);
    }
    try {
      if (await options.check()) return;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() >= deadline) {
      await options.child.stop();
      throw await startupError(
        options.what,
        `not ready after ${Math.round(options.timeoutMs / 1000)} s (last check: ${lastProblem})`,
        options.child.logFile,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/** Rejects with `message` when `promise` has not settled within `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
