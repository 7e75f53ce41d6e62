import type { ByteSource } from "../../domain/files/checks/byte-source.js";
import type { ObjectStorage } from "../../domain/files/object-storage.js";

/** The scan's view of a bucket object: ranged reads for header checks, a stream for the rest. */
export function storageByteSource(storage: ObjectStorage, key: string, size: number): ByteSource {
  return {
    size,
    read: (offset, length) => storage.readRange(key, offset, Math.min(length, Math.max(0, size - offset))),
    stream: () => storage.stream(key),
  };
}
