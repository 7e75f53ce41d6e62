/**
 * Complete's retries while the object's workflow task fails: sdk-core reports only a task's first
 * failure, so the server tries again only after the next attempt's workflow task timeout (10 s).
 * Counting tries (8, about 9 s of pauses) gave up just before that: under the fault-injection test
 * (every step's task fails, complete's twice) a loaded run answered `unavailable` where the
 * refusal was due.
 */
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { retryWhileTaskFailed, TASK_FAILED_RETRY_BUDGET_MS } from "../../../src/adapters/temporal/workflow-task-failed.js";

/** What the Temporal client throws while the task is in failed state. */
function taskFailed(): Error {
  return Object.assign(new Error("9 FAILED_PRECONDITION: Workflow Task in failed state."), { code: 9, details: "Workflow Task in failed state.", metadata: {} });
}

/** Work that fails as the server does until `recoversAtMs` of fake time, then answers. */
function failingUntil(recoversAtMs: number) {
  const started = performance.now();
  const calls = { count: 0 };
  const work = async () => {
    calls.count++;
    if (performance.now() - started < recoversAtMs) throw taskFailed();
    return "answered";
  };
  return { work, calls };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});
afterEach(() => {
  vi.useRealTimers();
});

it("keeps trying through two workflow task timeouts and answers once the task recovers", async () => {
  const { work, calls } = failingUntil(21_000);
  const answer = retryWhileTaskFailed(work);
  await vi.advanceTimersByTimeAsync(25_000);
  await expect(answer).resolves.toBe("answered");
  // A pause of at most a second: the answer comes soon after the recovery, not many calls later.
  expect(calls.count).toBeLessThan(30);
});

it("throws the server's error once the budget is spent", async () => {
  const { work } = failingUntil(Number.POSITIVE_INFINITY);
  const answer = retryWhileTaskFailed(work);
  const settled = answer.catch((error: unknown) => error);
  await vi.advanceTimersByTimeAsync(TASK_FAILED_RETRY_BUDGET_MS + 2_000);
  expect(String(await settled)).toMatch(/in failed state/);
});

it("throws any other error at once", async () => {
  let calls = 0;
  const answer = retryWhileTaskFailed(async () => {
    calls++;
    throw new Error("14 UNAVAILABLE: connection refused");
  });
  await expect(answer).rejects.toThrow(/UNAVAILABLE/);
  expect(calls).toBe(1);
});
