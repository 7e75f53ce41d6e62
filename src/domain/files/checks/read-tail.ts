import type { ByteSource } from "./byte-source.js";

/** The last `length` bytes of the source (all of it when smaller), without a negative offset. */
export function readTail(source: ByteSource, length: number): Promise<Uint8Array> {
  const tailLength = Math.max(0, Math.min(length, source.size));
  return source.read(source.size - tailLength, tailLength);
}
