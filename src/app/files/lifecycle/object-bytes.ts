import { createHash } from "node:crypto";
import type { ByteSource } from "../../../domain/files/checks/byte-source.js";
import type { ObjectStorage } from "../port.js";
import type { ObjectHead } from "./object-head.js";
import { recordStream, type RecordedStream } from "./recorded-stream.js";

/**
 * The scan's view of a bucket object: ranged reads, and a stream for the checks that need every
 * byte. A scan reads the object once: its first stream is recorded (recorded-stream.ts), and reads
 * that the stream's first chunk or kept tail hold, or the head complete already read, are served
 * from memory; only other ranges (an Office file's directory) cost a request of their own.
 */
export function objectByteSource(storage: ObjectStorage, key: string, size: number, head?: ObjectHead): ByteSource {
  const known = head?.bytes;
  const whole = known && known.length >= size ? known : undefined;
  let recorded: RecordedStream | undefined;
  return {
    size,
    read: async (offset, length) => {
      const end = Math.min(size, offset + length);
      if (known && end <= known.length) return known.subarray(offset, end);
      const held = await recorded?.bytesAt(offset, end);
      return held ?? storage.readRange(key, offset, Math.max(0, end - offset));
    },
    stream: () => {
      if (whole) return oneChunk(whole);
      if (recorded) return storage.stream(key);
      recorded = recordStream(head?.rest ? joined(head.bytes, head.rest) : storage.stream(key), size);
      return recorded.chunks;
    },
  };
}

async function* joined(first: Uint8Array, rest: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  yield first;
  yield* rest;
}

async function* oneChunk(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

const MD5_ETAG = /^[0-9a-f]{32}$/;

/** Whether the ETag is the MD5 of the bytes (a single PUT); a multipart upload's is not. */
export function etagIsMd5(etag: string | undefined): etag is string {
  return !!etag && MD5_ETAG.test(etag.toLowerCase());
}

/**
 * The MD5 of the stored bytes: the ETag where the backend makes it the MD5, else computed; and,
 * when asked, the SHA-256 (hex) in the same single read.
 */
export async function storedDigests(
  storage: ObjectStorage,
  key: string,
  etag: string | undefined,
  whole: Uint8Array | undefined,
  withSha256: boolean,
): Promise<{ md5: string; sha256?: string }> {
  if (etagIsMd5(etag) && !withSha256) return { md5: etag.toLowerCase() };
  const md5 = createHash("md5");
  const sha256 = withSha256 ? createHash("sha256") : undefined;
  const add = (chunk: Uint8Array) => {
    md5.update(chunk);
    sha256?.update(chunk);
  };
  if (whole) add(whole);
  else for await (const chunk of storage.stream(key)) add(chunk);
  return { md5: md5.digest("hex"), sha256: sha256?.digest("hex") };
}
