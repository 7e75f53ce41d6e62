/**
 * A bad or missing setting, naming its variable. In a file of its own so that every section
 * (src/config/*.ts) throws the same error without importing config.ts, which imports them.
 */
export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = "ConfigError";
  }
}
