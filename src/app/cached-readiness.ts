import type { Readiness, ReadinessReport } from "./readiness-report.js";

export interface ReadinessCacheOptions {
  /** Milliseconds on a monotonic clock (performance.now in the server). */
  now(): number;
  /** How long one answer of the dependencies stands; default one second. */
  maxAgeMs?: number;
}

/**
 * Readiness as anyone may ask it (public /readyz, gRPC health): from one report at most
 * `maxAgeMs` old, refreshed by one check at a time that every concurrent caller shares. A flood
 * of probes then costs the dependencies one round of pings a second, not one per probe, and
 * cannot slow the callers who share those dependencies. A load balancer learns of a failure at
 * most that much later.
 */
export function cachedReadiness(readiness: Readiness, options: ReadinessCacheOptions): Readiness {
  const maxAgeMs = options.maxAgeMs ?? 1000;
  let last: { report: ReadinessReport; checkedAt: number } | undefined;
  let refreshing: Promise<ReadinessReport> | undefined;

  const refresh = (): Promise<ReadinessReport> => {
    refreshing ??= (async () => {
      // The report's age counts from when the check started: what it says may be that old.
      const startedAt = options.now();
      try {
        const report = await readiness.check();
        last = { report, checkedAt: startedAt };
        return report;
      } finally {
        refreshing = undefined;
      }
    })();
    return refreshing;
  };

  return {
    check() {
      if (last && options.now() - last.checkedAt < maxAgeMs) return Promise.resolve(last.report);
      return refresh();
    },
  };
}
