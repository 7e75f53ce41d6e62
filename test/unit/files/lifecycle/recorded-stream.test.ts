/**
 * A scan's one stream remembers its first chunk and its tail (recorded-stream.ts), so that the
 * checks' ranged reads of a head or a tail cost no request of their own.
 */
import { describe, expect, it } from "vitest";
import { KEPT_TAIL_BYTES, recordStream, type RecordedStream } from "../../../../src/app/files/lifecycle/recorded-stream.js";

const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => i % 251);

async function* chunked(data: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  for (let offset = 0; offset < data.length; offset += size) yield data.subarray(offset, offset + size);
}

async function drain(chunks: AsyncIterable<Uint8Array>): Promise<number> {
  let total = 0;
  for await (const chunk of chunks) total += chunk.length;
  return total;
}

/** What the stream holds of [start, end), as a Buffer to compare; undefined when not held. */
async function held(recorded: RecordedStream, start: number, end: number): Promise<Buffer | undefined> {
  const bytes = await recorded.bytesAt(start, end);
  return bytes && Buffer.from(bytes);
}

describe("recordStream", () => {
  it("holds nothing before anyone pulls: a read then goes to storage", async () => {
    const recorded = recordStream(chunked(bytes, 10_000), bytes.length);
    await expect(recorded.bytesAt(0, 100)).resolves.toBeUndefined();
  });

  it("serves the head from the first chunk once it is being pulled, without waiting for anyone to take it", async () => {
    const recorded = recordStream(chunked(bytes, 10_000), bytes.length);
    const iterator = recorded.chunks[Symbol.asyncIterator]();
    const first = iterator.next();
    expect(await held(recorded, 0, 4100)).toEqual(Buffer.from(bytes.subarray(0, 4100)));
    // Past the first chunk: not held, whatever comes later.
    await expect(recorded.bytesAt(0, 10_001)).resolves.toBeUndefined();
    await first;
  });

  it("serves the tail once every byte went through, across chunk boundaries", async () => {
    const recorded = recordStream(chunked(bytes, 7_000), bytes.length);
    expect(await drain(recorded.chunks)).toBe(bytes.length);
    const start = bytes.length - KEPT_TAIL_BYTES;
    expect(await held(recorded, start, bytes.length)).toEqual(Buffer.from(bytes.subarray(start)));
    expect(await held(recorded, bytes.length - 1024, bytes.length - 10)).toEqual(Buffer.from(bytes.subarray(bytes.length - 1024, bytes.length - 10)));
    // The first chunk is held too; between it and the kept tail nothing is.
    expect(await held(recorded, 0, 10)).toEqual(Buffer.from(bytes.subarray(0, 10)));
    await expect(recorded.bytesAt(start - 7_000 * 2, start)).resolves.toBeUndefined();
  });

  it("holds no tail of a stream left before its end, nor of one shorter than the object", async () => {
    const left = recordStream(chunked(bytes, 10_000), bytes.length);
    for await (const _ of left.chunks) break;
    await expect(left.bytesAt(bytes.length - 100, bytes.length)).resolves.toBeUndefined();

    const short = recordStream(chunked(bytes.subarray(0, 200_000), 10_000), bytes.length);
    await drain(short.chunks);
    await expect(short.bytesAt(bytes.length - 100, bytes.length)).resolves.toBeUndefined();
  });

  it("a stream that fails before its first chunk holds nothing, and a waiting read goes to storage", async () => {
    async function* failing(): AsyncIterable<Uint8Array> {
      throw new Error("connection reset");
    }
    const recorded = recordStream(failing(), bytes.length);
    const pulled = recorded.chunks[Symbol.asyncIterator]().next();
    await expect(recorded.bytesAt(0, 10)).resolves.toBeUndefined();
    await expect(pulled).rejects.toThrow("connection reset");
  });
});
