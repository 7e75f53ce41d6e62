/** The fuzzers' hit-rate test (test/support/fuzz/hit-rates.ts): it fails on a drifted generator and not on an unlucky sample. */
import { describe, expect, it } from "vitest";
import { binomialLowerTail, FALSE_ALARM, HitRates } from "../../support/fuzz/hit-rates.js";

function rates(ok: number, all: number): HitRates {
  const hits = new HitRates();
  for (let i = 0; i < all; i++) hits.tally("update", i < ok);
  return hits;
}

describe("the fuzzers' hit rates", () => {
  it("sums the binomial lower tail exactly on small cases and stays finite on large ones", () => {
    expect(binomialLowerTail(0, 3, 0.5)).toBeCloseTo(1 / 8, 12);
    expect(binomialLowerTail(1, 3, 0.5)).toBeCloseTo(4 / 8, 12);
    expect(binomialLowerTail(3, 3, 0.5)).toBe(1);
    expect(binomialLowerTail(500, 1000, 0.5)).toBeCloseTo(0.5126, 3);
    expect(binomialLowerTail(100, 5000, 0.3)).toBeGreaterThanOrEqual(0);
  });

  it("passes the unlucky sample a CI run saw (9 of 56 against 1/6) and fails a generator that drifted into refusals", () => {
    expect(() => rates(9, 56).expectAtLeast("fuzz", { update: 1 / 6 })).not.toThrow();
    expect(() => rates(0, 56).expectAtLeast("fuzz", { update: 1 / 6 })).toThrow(/0 of 56 update calls answered OK/);
    expect(() => rates(20, 400).expectAtLeast("fuzz", { update: 1 / 6 })).toThrow(/20 of 400/);
  });

  it("refuses a sample too small for zero hits to fail it, since such a test could not fail", () => {
    expect(binomialLowerTail(0, 40, 1 / 6)).toBeGreaterThan(FALSE_ALARM);
    expect(() => rates(40, 40).expectAtLeast("fuzz", { update: 1 / 6 })).toThrow(/40 update calls are too few/);
  });
});
