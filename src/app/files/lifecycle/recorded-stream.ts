import { EOCD_SEARCH_BYTES } from "../../../domain/files/checks/zip-directory.js";

/** The longest tail a check reads after streaming: a ZIP's end-record search (a PDF's trailer is within it). */
export const KEPT_TAIL_BYTES = EOCD_SEARCH_BYTES;

/**
 * A scan's one stream of an object, remembering what ranged reads may ask of it afterwards or
 * beside it: its first chunk and its last KEPT_TAIL_BYTES, so that the magic-byte head and a
 * PDF's or JPEG's tail need no request of their own.
 */
export interface RecordedStream {
  chunks: AsyncIterable<Uint8Array>;
  /**
   * Bytes [start, end) if this stream holds them: in its first chunk once that is on its way (it
   * is awaited), or in its kept tail once every byte went through. Else undefined: read them
   * from storage. Never waits on anything that needs a consumer to move.
   */
  bytesAt(start: number, end: number): Promise<Uint8Array | undefined>;
}

export function recordStream(source: AsyncIterable<Uint8Array>, size: number): RecordedStream {
  let begun = false;
  let first: Promise<Uint8Array | undefined> | undefined;
  let settleFirst: (chunk: Uint8Array | undefined) => void = () => undefined;
  const tail: Uint8Array[] = [];
  let tailBytes = 0;
  let ended = false;

  const keep = (chunk: Uint8Array) => {
    tail.push(chunk);
    tailBytes += chunk.length;
    while (tail.length > 1 && tailBytes - tail[0]!.length >= KEPT_TAIL_BYTES) tailBytes -= tail.shift()!.length;
  };

  async function* chunks(): AsyncIterable<Uint8Array> {
    begun = true;
    first = new Promise((resolve) => (settleFirst = resolve));
    let delivered = 0;
    try {
      for await (const chunk of source) {
        if (delivered === 0) settleFirst(chunk);
        delivered += chunk.length;
        keep(chunk);
        yield chunk;
      }
      ended = delivered === size;
    } finally {
      settleFirst(undefined);
    }
  }

  return {
    chunks: chunks(),
    async bytesAt(start, end) {
      if (ended && start >= size - tailBytes) return fromTail(tail, size - tailBytes, start, end);
      // Begun: the first chunk is being pulled, and arrives whether or not anyone takes it.
      const head = begun ? await first : undefined;
      return head && end <= head.length ? head.subarray(start, end) : undefined;
    },
  };
}

function fromTail(tail: readonly Uint8Array[], tailStart: number, start: number, end: number): Uint8Array {
  const parts: Uint8Array[] = [];
  let offset = tailStart;
  for (const chunk of tail) {
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + chunk.length);
    if (from < to) parts.push(chunk.subarray(from - offset, to - offset));
    offset += chunk.length;
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}
