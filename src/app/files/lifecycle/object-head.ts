import type { ObjectStorage, OpenedObject } from "../port.js";

/**
 * The first bytes of an opened object, with the same read left open for the rest: complete
 * verifies the head and then scans the whole file from this one GET instead of a second.
 */
export interface ObjectHead {
  /** At least `length` bytes from the start (all of them when the object is smaller). */
  bytes: Uint8Array;
  size: number;
  etag?: string;
  /** The bytes after `bytes`, once: absent when `bytes` holds the whole object. */
  rest?: AsyncIterable<Uint8Array>;
  /** Ends the read if nobody took the rest to its end. Idempotent; call it when done with the head. */
  release(): void;
}

export async function readHead(opened: OpenedObject, length: number): Promise<ObjectHead> {
  const iterator = opened.body[Symbol.asyncIterator]();
  let finished = false;
  const release = () => {
    if (!finished) opened.cancel();
    finished = true;
  };
  const chunks: Uint8Array[] = [];
  let read = 0;
  try {
    while (read < Math.min(length, opened.size)) {
      const next = await iterator.next();
      if (next.done) break;
      chunks.push(next.value);
      read += next.value.length;
    }
    // The whole object: read the end of the response too, so that its socket goes back to the pool.
    if (read >= opened.size) finished = (await iterator.next()).done === true;
  } catch (error) {
    release();
    throw error;
  }
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  const head = { bytes, size: opened.size, etag: opened.etag, release };
  if (read >= opened.size) return head;
  async function* rest(): AsyncIterable<Uint8Array> {
    try {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
      finished = true;
    } finally {
      release();
    }
  }
  return { ...head, rest: rest() };
}

/** At least `length` bytes of the object from one GET of all of it, left open for the scan; undefined when nothing is stored. */
export async function openHead(storage: Pick<ObjectStorage, "open">, key: string, length: number): Promise<ObjectHead | undefined> {
  const opened = await storage.open(key);
  return opened && readHead(opened, length);
}

/** The first byte alone, for what its response tells (size, ETag); undefined when nothing is stored. */
export async function prefixHead(storage: Pick<ObjectStorage, "readPrefix">, key: string): Promise<ObjectHead | undefined> {
  const prefix = await storage.readPrefix(key, 1);
  return prefix && { ...prefix, release: () => undefined };
}
