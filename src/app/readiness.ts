import { cachedReadiness, type ReadinessCacheOptions } from "./cached-readiness.js";
import type { Readiness } from "./readiness-report.js";

// The API and the health service name the type by this file.
export type { Readiness } from "./readiness-report.js";

/** Readiness of the dependencies the API needs: database, storage, Temporal, cache. */
export interface DependencyProbe {
  name: string;
  check(): Promise<void>;
  /**
   * Shown in the detailed report but not counted in `ready`: a dependency the API does not
   * serve with. The malware scanner is one: while it is down uploads wait in SCANNING, and
   * taking the API out of its load balancer would only refuse the calls that still work.
   */
  optional?: boolean;
}

const PROBE_TIMEOUT_MS = 2000;

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      () => (clearTimeout(timer), resolve()),
      (error) => (clearTimeout(timer), reject(error)),
    );
  });
}

/**
 * Every dependency pinged at once, at most once per `cache.maxAgeMs` (a second) however many
 * probes ask: anyone may ask /readyz and gRPC health (cached-readiness.ts).
 */
export function createReadiness(probes: DependencyProbe[], cache: ReadinessCacheOptions): Readiness {
  return cachedReadiness(pingAll(probes), cache);
}

function pingAll(probes: DependencyProbe[]): Readiness {
  return {
    async check() {
      const results = await Promise.all(
        probes.map(async (probe) => {
          try {
            await withTimeout(probe.check(), PROBE_TIMEOUT_MS);
            return [probe.name, { ok: true, ...optional(probe) }] as const;
          } catch (error) {
            return [probe.name, { ok: false, error: (error as Error).message, ...optional(probe) }] as const;
          }
        }),
      );
      const dependencies = Object.fromEntries(results);
      return { ready: results.every(([, r]) => r.ok || r.optional), dependencies };
    },
  };
}

function optional(probe: DependencyProbe): { optional?: true } {
  return probe.optional ? { optional: true } : {};
}
