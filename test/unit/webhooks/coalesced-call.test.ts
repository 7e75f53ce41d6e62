/** The listener's wake-ups: a burst of calls makes one call now and one after it, and a failed call is made again. */
import { describe, expect, it } from "vitest";
import { CoalescedCall } from "../../../src/adapters/postgres/coalesced-call.js";

/** A target whose calls stay open until the test settles them. */
function controlledTarget() {
  const calls: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const target = () => new Promise<void>((resolve, reject) => calls.push({ resolve, reject }));
  return { calls, target };
}

const settled = () => new Promise((r) => setTimeout(r, 0));

describe("CoalescedCall", () => {
  it("makes one call at a time, and one more after it for all the calls asked for meanwhile", async () => {
    const { calls, target } = controlledTarget();
    const call = new CoalescedCall(target, { initialMs: 1, maxMs: 1 }, () => undefined);
    call.call();
    for (let i = 0; i < 50; i++) call.call();
    await settled();
    expect(calls).toHaveLength(1);
    calls[0]!.resolve();
    await settled();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve();
    await settled();
    expect(calls).toHaveLength(2);
    call.call();
    await settled();
    expect(calls).toHaveLength(3);
    calls[2]!.resolve();
  });

  it("makes a failed call again after the backoff, and reports the failure", async () => {
    const { calls, target } = controlledTarget();
    const failures: unknown[] = [];
    const call = new CoalescedCall(target, { initialMs: 5, maxMs: 5 }, (error) => failures.push(error));
    call.call();
    await settled();
    calls[0]!.reject(new Error("temporal down"));
    await settled();
    expect(failures).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toHaveLength(2);
    calls[1]!.resolve();
    await settled();
    call.stop();
  });

  it("makes no call once stopped", async () => {
    const { calls, target } = controlledTarget();
    const call = new CoalescedCall(target, { initialMs: 1, maxMs: 1 }, () => undefined);
    call.stop();
    call.call();
    await settled();
    expect(calls).toHaveLength(0);
  });
});
