/**
 * Bounds on tenants' patterns and formulas (src/domain/customfields/limits.ts has the same shape).
 * re2-wasm's heap is a fixed 16 MiB for the process (about 11.2 MiB free): one compilation at
 * its peak plus the cache must leave room for RE2's matching caches. Cache costs are upper bounds
 * of what a compiled pattern keeps, from its compile estimate and program size
 * (src/domain/customfields/pattern-cost.ts, pattern-program.ts).
 */
import { ConfigError } from "./config-error.js";
import type { Env } from "./env.js";
import { integer } from "./env-values.js";

export interface CustomFieldLimitsConfig {
  patterns: {
    maxLength: number;
    maxCompileBytes: number;
    cacheBytes: number;
    cacheEntries: number;
    tenantBytes: number;
    tenantEntries: number;
    /** Instructions of one compiled program (pattern-program.ts): what each byte matched may cost. */
    maxProgramSize: number;
    /** Bytes of value x instructions one match may take; a longer value is not matched. */
    maxMatchSteps: number;
    /** Steps of all pattern matches, and of all compilations, of one request (pattern-budget.ts). */
    maxRequestMatchSteps: number;
    maxRequestCompileSteps: number;
  };
  formulas: { maxTextLength: number; maxSteps: number };
}

export function parseCustomFieldLimits(env: Env): CustomFieldLimitsConfig {
  const mib = 1024 * 1024;
  const patterns = {
    maxLength: integer(env, "PATTERN_MAX_LENGTH", 500),
    maxCompileBytes: integer(env, "PATTERN_MAX_COMPILE_BYTES", mib),
    cacheBytes: integer(env, "PATTERN_CACHE_BYTES", 6 * mib),
    cacheEntries: integer(env, "PATTERN_CACHE_ENTRIES", 500),
    tenantBytes: integer(env, "PATTERN_CACHE_TENANT_BYTES", 2 * mib),
    tenantEntries: integer(env, "PATTERN_CACHE_TENANT_ENTRIES", 50),
    maxProgramSize: integer(env, "PATTERN_MAX_PROGRAM_SIZE", 4_000),
    maxMatchSteps: integer(env, "PATTERN_MAX_MATCH_STEPS", 75_000),
    maxRequestMatchSteps: integer(env, "PATTERN_MAX_REQUEST_MATCH_STEPS", 80_000),
    maxRequestCompileSteps: integer(env, "PATTERN_MAX_REQUEST_COMPILE_STEPS", 170_000),
  };
  // One longest match fits in any request.
  if (patterns.maxRequestMatchSteps < patterns.maxMatchSteps) {
    throw new ConfigError("PATTERN_MAX_REQUEST_MATCH_STEPS", `must be at least PATTERN_MAX_MATCH_STEPS (${patterns.maxMatchSteps})`);
  }
  if (patterns.tenantBytes > patterns.cacheBytes) {
    throw new ConfigError("PATTERN_CACHE_TENANT_BYTES", "must not exceed PATTERN_CACHE_BYTES");
  }
  if (patterns.maxCompileBytes > patterns.tenantBytes) {
    throw new ConfigError("PATTERN_MAX_COMPILE_BYTES", "must not exceed PATTERN_CACHE_TENANT_BYTES");
  }
  const formulas = {
    maxTextLength: integer(env, "FORMULA_MAX_TEXT_LENGTH", 10_000),
    maxSteps: integer(env, "FORMULA_MAX_STEPS", 100_000),
  };
  return { patterns, formulas };
}
