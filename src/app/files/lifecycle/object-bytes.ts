import { createHash } from "node:crypto";
import type { ByteSource } from "../../../domain/files/checks/byte-source.js";
import type { ObjectStorage } from "../port.js";

/**
 * The scan's view of a bucket object: ranged reads, a stream for the checks that need every
 * byte, and reads inside an already-fetched prefix served from memory (a small file is read once).
 */
export function objectByteSource(storage: ObjectStorage, key: string, size: number, prefix?: Uint8Array): ByteSource {
  const whole = prefix && prefix.length >= size ? prefix : undefined;
  return {
    size,
    read: (offset, length) => {
      const end = Math.min(size, offset + length);
      if (prefix && end <= prefix.length) return Promise.resolve(prefix.subarray(offset, end));
      return storage.readRange(key, offset, Math.max(0, end - offset));
    },
    stream: () => (whole ? oneChunk(whole) : storage.stream(key)),
  };
}

async function* oneChunk(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

const MD5_ETAG = /^[0-9a-f]{32}$/;

/** The MD5 of the stored bytes: the ETag where the backend makes it the MD5, else computed. */
export async function storedMd5(storage: ObjectStorage, key: string, etag: string | undefined, whole?: Uint8Array): Promise<string> {
  if (etag && MD5_ETAG.test(etag.toLowerCase())) return etag.toLowerCase();
  const hash = createHash("md5");
  if (whole) hash.update(whole);
  else for await (const chunk of storage.stream(key)) hash.update(chunk);
  return hash.digest("hex");
}
