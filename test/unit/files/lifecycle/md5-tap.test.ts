import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ByteSource } from "../../../../src/domain/files/checks/byte-source.js";
import { md5Tap } from "../../../../src/app/files/lifecycle/md5-tap.js";

const bytes = new TextEncoder().encode("one two three four five");
const md5 = createHash("md5").update(bytes).digest("hex");

function chunked(all: Uint8Array, size = 5): ByteSource {
  return {
    size: all.length,
    read: async (offset, length) => all.subarray(offset, offset + length),
    stream: async function* () {
      for (let at = 0; at < all.length; at += size) yield all.subarray(at, at + size);
    },
  };
}

async function take(stream: AsyncIterable<Uint8Array>, bytesWanted: number) {
  let seen = 0;
  for await (const chunk of stream) {
    seen += chunk.length;
    if (seen >= bytesWanted) break;
  }
}

describe("md5Tap", () => {
  it("has the MD5 once a stream delivered every byte, even if its consumer never asked for the end", async () => {
    const tap = md5Tap(chunked(bytes));
    expect(tap.md5()).toBeUndefined();
    await take(tap.source.stream(), bytes.length);
    expect(tap.md5()).toBe(md5);
  });

  it("has none when the stream was left before the end, nor from ranged reads", async () => {
    const tap = md5Tap(chunked(bytes));
    await take(tap.source.stream(), 10);
    await tap.source.read(0, bytes.length);
    expect(tap.md5()).toBeUndefined();
  });

  it("hashes each stream on its own: a second, complete one gives the MD5", async () => {
    const tap = md5Tap(chunked(bytes));
    await take(tap.source.stream(), 10);
    await take(tap.source.stream(), bytes.length);
    expect(tap.md5()).toBe(md5);
  });

  it("an empty object's MD5", async () => {
    const tap = md5Tap(chunked(new Uint8Array(0)));
    await take(tap.source.stream(), 1);
    expect(tap.md5()).toBe(createHash("md5").digest("hex"));
  });
});
