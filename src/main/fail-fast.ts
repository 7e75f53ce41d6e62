import { ConfigError } from "../config/config-error.js";
import { parseConfig, type Config } from "../config/config.js";
import { readEnv, type Env } from "../config/env.js";

/** A bad or missing setting stops the process with one line naming the variable. */
export function configOrExit(env: Env = readEnv()): Config {
  return orExitOnConfigError(() => parseConfig(env));
}

/** The same for a setting one process alone requires (the worker's CLAMD_ADDRESS). */
export function orExitOnConfigError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Runs `stop` once on SIGINT/SIGTERM/SIGHUP, then exits. SIGHUP (the terminal closed) too: its
 * default would end this process on the spot, leaving the servers `npm start` runs in their own
 * process groups (src/stack/process.ts) without anyone to stop them.
 */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    stop()
      .then(() => process.exit(0))
      .catch((error) => {
        process.stderr.write(`shutdown after ${signal} failed: ${(error as Error).message}\n`);
        process.exit(1);
      });
  };
  process.on("SIGINT", () => handler("SIGINT"));
  process.on("SIGTERM", () => handler("SIGTERM"));
  process.on("SIGHUP", () => handler("SIGHUP"));
}
