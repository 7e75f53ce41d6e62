import { createHash } from "node:crypto";
import type { ByteSource } from "../../../domain/files/checks/byte-source.js";

export interface Md5Tap {
  /** The source to scan: its streams are hashed as their consumers pull them. */
  source: ByteSource;
  /** The MD5 (hex) of the bytes, once a stream delivered all `size` of them; else undefined. */
  md5(): string | undefined;
}

/**
 * Computes the MD5 of an object on the way through the scan's own read, so that nothing reads the
 * bytes a second time for it. Each stream is hashed on its own (a consumer that streams again
 * starts over); ranged reads are not hashed. A stream left before its end (the engine stopped at
 * its size limit, no check wanted every byte) yields no MD5: the caller reads for it then.
 */
export function md5Tap(inner: ByteSource): Md5Tap {
  let digest: string | undefined;
  async function* hashed(): AsyncIterable<Uint8Array> {
    const hash = createHash("md5");
    let seen = 0;
    for await (const chunk of inner.stream()) {
      hash.update(chunk);
      seen += chunk.length;
      // Digested at the last byte, before the consumer sees it: one that stops at `size` without asking for more still counts.
      if (seen === inner.size && digest === undefined) digest = hash.copy().digest("hex");
      yield chunk;
    }
    if (seen === inner.size) digest ??= hash.digest("hex");
  }
  return {
    source: { size: inner.size, read: (offset, length) => inner.read(offset, length), stream: hashed },
    md5: () => digest,
  };
}
