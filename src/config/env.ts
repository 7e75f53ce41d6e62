/**
 * The raw environment, read once at start: parsers take it as a value so that tests hand them
 * a plain object instead of mutating process.env.
 */
export type Env = Record<string, string | undefined>;

export function readEnv(): Env {
  return { ...process.env };
}
