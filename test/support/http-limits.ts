import { type HttpLimitsConfig, parseHttpLimits } from "../../src/config/http-limits.js";

type LimitOverrides = Partial<Omit<HttpLimitsConfig, "http2">> & { http2?: Partial<HttpLimitsConfig["http2"]> };

/**
 * The API's connection limits as production has them by default, with the bounds a test exercises
 * changed: a test names only those, and a limit added later reaches every test with its default.
 */
export function httpLimits(overrides: LimitOverrides): HttpLimitsConfig {
  const defaults = parseHttpLimits({}, 0);
  return { ...defaults, ...overrides, http2: { ...defaults.http2, ...overrides.http2 } };
}
