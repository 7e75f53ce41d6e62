/**
 * How often each kind of fuzzed call answered OK. A fuzzer states the share of calls that must
 * reach the branch it targets (a create that is stored, a list that answers rows), so a generator
 * that drifts into refusals fails instead of passing vacuously.
 *
 * The share is a random sample, so comparing the observed share with the minimum would fail now and
 * then on a sound generator (a run saw 9 of 56 updates answer OK against a minimum of 1/6, where the
 * generator averages 0.31). Instead the observed count is tested against the minimum: it fails only
 * when a count this low has a chance under FALSE_ALARM of happening if the true share were the
 * minimum. And so that the test can fail at all, the sample must be large enough that no hit at all
 * would fail it.
 */
import { expect } from "vitest";

/** The most a sound generator (true share at or above the minimum) may fail an assertion: 1 in 10,000. */
export const FALSE_ALARM = 1e-4;

/** P(X ≤ k) for X ~ Binomial(n, p), summed in log space so that n in the thousands stays exact enough. */
export function binomialLowerTail(k: number, n: number, p: number): number {
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  let logTerm = n * Math.log1p(-p); // P(X = 0)
  let sum = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((n - i + 1) / i) + Math.log(p) - Math.log1p(-p);
    sum += Math.exp(logTerm);
  }
  return Math.min(sum, 1);
}

export class HitRates {
  private readonly counts = new Map<string, { ok: number; all: number }>();

  tally(kind: string, ok: boolean): void {
    const count = this.counts.get(kind) ?? { ok: 0, all: 0 };
    count.all++;
    if (ok) count.ok++;
    this.counts.set(kind, count);
  }

  calls(kind: string): number {
    return this.counts.get(kind)?.all ?? 0;
  }

  /** The share of `kind` calls that answered OK (0 when none were made). */
  rate(kind: string): number {
    const count = this.counts.get(kind);
    return count && count.all > 0 ? count.ok / count.all : 0;
  }

  /** Prints the measured rates and tests each minimum, e.g. `{ create: 1 / 3 }` (see the file's comment). */
  expectAtLeast(what: string, minimums: Record<string, number>): void {
    console.log(`${what}: ${[...this.counts].map(([kind, c]) => `${kind} ${c.ok}/${c.all} OK`).join(", ")}`);
    for (const [kind, minimum] of Object.entries(minimums)) {
      const { ok, all } = this.counts.get(kind) ?? { ok: 0, all: 0 };
      expect(binomialLowerTail(0, all, minimum), `${what}: ${all} ${kind} calls are too few for a share of ${minimum.toFixed(3)} to be tested`).toBeLessThan(FALSE_ALARM);
      expect(binomialLowerTail(ok, all, minimum), `${what}: ${ok} of ${all} ${kind} calls answered OK, too few for a share of ${minimum.toFixed(3)}`).toBeGreaterThanOrEqual(FALSE_ALARM);
    }
  }
}
