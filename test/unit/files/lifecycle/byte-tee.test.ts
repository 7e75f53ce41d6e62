import { describe, expect, it } from "vitest";
import { teeBytes } from "../../../../src/app/files/lifecycle/byte-tee.js";

/** A source that counts how many chunks were pulled from it and whether it was closed. */
function counted(chunks: number, size = 4) {
  const state = { pulled: 0, closed: false };
  async function* generate() {
    try {
      for (let i = 0; i < chunks; i++) {
        state.pulled += 1;
        yield new Uint8Array(size).fill(i);
      }
    } finally {
      state.closed = true;
    }
  }
  return { source: generate(), state };
}

async function drain(branch: AsyncIterable<Uint8Array>): Promise<number[]> {
  const seen: number[] = [];
  for await (const chunk of branch) seen.push(chunk[0]!);
  return seen;
}

describe("teeBytes", () => {
  it("gives every consumer every chunk from one read of the source", async () => {
    const { source, state } = counted(5);
    const tee = teeBytes(source, 2);
    const [a, b] = await Promise.all(tee.branches.map(drain));
    expect(a).toEqual([0, 1, 2, 3, 4]);
    expect(b).toEqual([0, 1, 2, 3, 4]);
    expect(state.pulled).toBe(5);
    expect(tee.bytesRead).toBe(20);
    expect(tee.branches.map((branch) => branch.delivered)).toEqual([20, 20]);
  });

  it("pulls the next chunk only when every attached consumer has taken the current one", async () => {
    const { source, state } = counted(5);
    const [fast, slow] = teeBytes(source, 2).branches;
    const fastIterator = fast![Symbol.asyncIterator]();
    await fastIterator.next();
    const second = fastIterator.next();
    await new Promise((r) => setTimeout(r, 10));
    // The slow consumer has not taken chunk 0: chunk 1 is not read yet.
    expect(state.pulled).toBe(1);
    const slowIterator = slow![Symbol.asyncIterator]();
    expect((await slowIterator.next()).value[0]).toBe(0);
    expect((await second).value[0]).toBe(1);
    expect(state.pulled).toBe(2);
  });

  it("stops waiting for a consumer that detaches, and closes the source when all have", async () => {
    const { source, state } = counted(1000);
    const tee = teeBytes(source, 2);
    const [checks, engine] = tee.branches;
    const readTen = (async () => {
      const iterator = engine![Symbol.asyncIterator]();
      const seen: number[] = [];
      for (let i = 0; i < 10; i++) seen.push((await iterator.next()).value[0]);
      await iterator.return!();
      return seen;
    })();
    for await (const chunk of checks!) if (chunk[0] === 2) break;
    // Past chunk 2 the engine's consumer alone sets the pace.
    expect(await readTen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(state.closed).toBe(true);
    expect(state.pulled).toBeLessThan(1000);
  });

  it("hands the source's error to every consumer", async () => {
    const failure = new Error("storage unreachable");
    async function* broken() {
      yield new Uint8Array([1]);
      throw failure;
    }
    const tee = teeBytes(broken(), 2);
    const results = await Promise.allSettled(tee.branches.map(drain));
    expect(results.map((r) => (r.status === "rejected" ? r.reason : undefined))).toEqual([failure, failure]);
    expect(tee.failure?.error).toBe(failure);
  });
});
