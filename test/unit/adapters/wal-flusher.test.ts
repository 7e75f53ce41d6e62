/**
 * WalFlusher: a caller is covered only by a flush that starts after it asked; callers that ask
 * while one flush runs share the next one; a failed flush fails its callers and not later ones.
 */
import { describe, expect, it } from "vitest";
import { WalFlusher } from "../../../src/adapters/postgres/wal-flusher.js";

/** A flush that ends when the test says so; `started` counts flushes begun. */
function controlledFlush() {
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const flushOnce = () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
  return { flushOnce, pending, started: () => pending.length };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

async function outcome(promise: Promise<void>): Promise<string> {
  const state = await Promise.race([promise.then(() => "flushed", () => "failed"), settled().then(() => "waiting")]);
  return state;
}

describe("WalFlusher", () => {
  it("starts a flush at once when none runs", async () => {
    const flush = controlledFlush();
    const flusher = new WalFlusher(flush.flushOnce);
    const first = flusher.flush();
    await settled();
    expect(flush.started()).toBe(1);
    flush.pending[0]!.resolve();
    expect(await outcome(first)).toBe("flushed");
  });

  it("makes a caller that asks during a flush wait for the next one, which every such caller shares", async () => {
    const flush = controlledFlush();
    const flusher = new WalFlusher(flush.flushOnce);
    const first = flusher.flush();
    await settled();
    const [second, third] = [flusher.flush(), flusher.flush()];
    await settled();
    expect(flush.started()).toBe(1);
    flush.pending[0]!.resolve();
    expect(await outcome(first)).toBe("flushed");
    // The running flush may have begun before their commits: it does not answer them.
    expect(await outcome(second)).toBe("waiting");
    expect(flush.started()).toBe(2);
    flush.pending[1]!.resolve();
    expect([await outcome(second), await outcome(third)]).toEqual(["flushed", "flushed"]);
    expect(flush.started()).toBe(2);
  });

  it("fails the callers of a failed flush, and the next caller gets a flush of its own", async () => {
    const flush = controlledFlush();
    const flusher = new WalFlusher(flush.flushOnce);
    const first = flusher.flush();
    await settled();
    const waiting = flusher.flush();
    flush.pending[0]!.reject(new Error("connection lost"));
    expect(await outcome(first)).toBe("failed");
    await settled();
    expect(flush.started()).toBe(2);
    flush.pending[1]!.resolve();
    expect(await outcome(waiting)).toBe("flushed");
    const later = flusher.flush();
    await settled();
    expect(flush.started()).toBe(3);
    flush.pending[2]!.resolve();
    expect(await outcome(later)).toBe("flushed");
  });
});
