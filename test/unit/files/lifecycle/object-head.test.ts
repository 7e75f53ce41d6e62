/** Complete's head and the scan's rest come out of one GET (object-head.ts). */
import { describe, expect, it } from "vitest";
import { readHead } from "../../../../src/app/files/lifecycle/object-head.js";

const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => i % 253);

function opened(data: Uint8Array, chunkSize = 16_384) {
  const state = { cancelled: 0, ended: false };
  async function* body(): AsyncIterable<Uint8Array> {
    for (let offset = 0; offset < data.length; offset += chunkSize) yield data.subarray(offset, offset + chunkSize);
    state.ended = true;
  }
  return { state, object: { size: data.length, etag: "e", body: body(), cancel: () => (state.cancelled += 1) } };
}

async function concat(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

describe("readHead", () => {
  it("reads at least the head, and the rest continues where it stopped", async () => {
    const { object, state } = opened(bytes);
    const head = await readHead(object, 40_000);
    expect(head.bytes.length).toBeGreaterThanOrEqual(40_000);
    expect(Buffer.from(head.bytes)).toEqual(Buffer.from(bytes.subarray(0, head.bytes.length)));
    expect(Buffer.concat([head.bytes, await concat(head.rest!)])).toEqual(Buffer.from(bytes));
    head.release();
    expect(state).toEqual({ cancelled: 0, ended: true });
  });

  it("a small object is whole in the head, read to the end of its response", async () => {
    const { object, state } = opened(bytes);
    const head = await readHead(object, 256 * 1024);
    expect(Buffer.from(head.bytes)).toEqual(Buffer.from(bytes));
    expect(head.rest).toBeUndefined();
    head.release();
    expect(state).toEqual({ cancelled: 0, ended: true });
  });

  it("an empty object: an empty head", async () => {
    const { object } = opened(new Uint8Array());
    const head = await readHead(object, 1024);
    expect(head.bytes.length).toBe(0);
    expect(head.rest).toBeUndefined();
  });

  it("a rest nobody reads, or reads part of, is cancelled once, on release", async () => {
    const untouched = opened(bytes);
    const head = await readHead(untouched.object, 20_000);
    head.release();
    head.release();
    expect(untouched.state.cancelled).toBe(1);

    const partly = opened(bytes);
    const partial = await readHead(partly.object, 20_000);
    for await (const _ of partial.rest!) break;
    partial.release();
    expect(partly.state.cancelled).toBe(1);
  });
});
