import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backoffDelay, withRetry, type RetryPolicy } from "../../../packages/client/src/browser-uploader/backoff.js";
import { CancelledError } from "../../../packages/client/src/browser-uploader/errors.js";
import { FakeClock, FakeNetwork } from "./fakes.js";

const policy: RetryPolicy = { maxAttempts: 6, baseDelayMs: 500, maxDelayMs: 8000 };

describe("backoff with full jitter", () => {
  it("stays within [0, min(max, base × 2^(n-1))) for any random value", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (retry, r) => {
        const delay = backoffDelay(retry, policy, () => r);
        const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
      }),
    );
  });

  it("doubles the window per retry until the maximum", () => {
    const top = (retry: number) => backoffDelay(retry, policy, () => 0.999999);
    expect([1, 2, 3, 4, 5, 6, 7].map(top)).toEqual([499, 999, 1999, 3999, 7999, 7999, 7999]);
  });

  it("is spread over the window, not fixed (jitter)", () => {
    const delays = [0, 0.25, 0.5, 0.75].map((r) => backoffDelay(3, policy, () => r));
    expect(delays).toEqual([0, 500, 1000, 1500]);
  });
});

describe("withRetry", () => {
  const context = (overrides: Partial<Parameters<typeof withRetry>[1]> = {}) => ({
    policy,
    clock: new FakeClock(),
    random: () => 1 - Number.EPSILON,
    network: new FakeNetwork(),
    signal: new AbortController().signal,
    isTransient: (error: unknown) => error instanceof Error && error.message === "transient",
    ...overrides,
  });

  it("sleeps a backoff delay between attempts and returns the first success", async () => {
    const clock = new FakeClock();
    const ctx = context({ clock });
    let calls = 0;
    const result = await withRetry(async () => {
      if (++calls < 4) throw new Error("transient");
      return "ok";
    }, ctx);
    expect(result).toBe("ok");
    expect(clock.sleeps).toEqual([499, 999, 1999]);
  });

  it("throws the last error after maxAttempts", async () => {
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(new Error("transient"));
    };
    await expect(withRetry(failing, context({ policy: { ...policy, maxAttempts: 3 } }))).rejects.toThrow("transient");
    expect(calls).toBe(3);
  });

  it("throws a permanent error at once", async () => {
    let calls = 0;
    await expect(withRetry(() => (calls++, Promise.reject(new Error("permanent"))), context())).rejects.toThrow("permanent");
    expect(calls).toBe(1);
  });

  it("throws CancelledError once the signal aborted", async () => {
    const controller = new AbortController();
    const op = () => {
      controller.abort();
      return Promise.reject(new Error("transient"));
    };
    await expect(withRetry(op, context({ signal: controller.signal }))).rejects.toBeInstanceOf(CancelledError);
  });
});
