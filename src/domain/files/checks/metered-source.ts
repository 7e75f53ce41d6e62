import type { ByteSource } from "./byte-source.js";
import { NO_CHECKPOINT, type Checkpoint } from "./checkpoint.js";

/**
 * Wraps the caller's ByteSource for one scan:
 * - counts every byte the source returns (the scan reports it as `bytesRead`, and a ranged-read
 *   budget is only believable if it is measured where the bytes enter);
 * - fetches the head of the file once and serves every later read inside it from memory, so the
 *   checks can each re-read the header they need without paying for it twice;
 * - clamps ranges to the object, so a hostile length field never turns into an invalid request;
 * - remembers errors thrown by the source, so the scanner can tell "storage failed, retry" from
 *   "a check tripped over hostile content";
 * - awaits the caller's checkpoint after every streamed chunk (and whenever a check calls `pause`),
 *   remembering what it throws too: a superseded scan stops, and is not a failed check.
 */
export class MeteredSource implements ByteSource {
  private consumed = 0;
  private head: Promise<Uint8Array> | undefined;
  private readonly sourceErrors = new Set<unknown>();

  constructor(
    private readonly inner: ByteSource,
    private readonly headLength: number,
    private readonly onProgress?: (bytesRead: number) => void,
    private readonly checkpoint: Checkpoint = NO_CHECKPOINT,
  ) {}

  get size(): number {
    return this.inner.size;
  }

  get bytesRead(): number {
    return this.consumed;
  }

  /** True when `error` came out of the wrapped source or the checkpoint (and so must propagate). */
  isSourceError(error: unknown): boolean {
    return this.sourceErrors.has(error);
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    const start = Math.max(0, Math.min(Math.floor(offset), this.size));
    const end = Math.max(start, Math.min(Math.floor(offset + length), this.size));
    if (end === start) return new Uint8Array(0);
    if (end <= this.headLength) {
      const head = await this.readHead();
      return head.subarray(start, Math.min(end, head.length));
    }
    return this.fetch(start, end - start);
  }

  async *stream(): AsyncIterable<Uint8Array> {
    try {
      for await (const chunk of this.inner.stream()) {
        this.count(chunk.length);
        yield chunk;
        await this.checkpoint();
      }
    } catch (error) {
      throw this.remember(error);
    }
  }

  async pause(): Promise<void> {
    try {
      await this.checkpoint();
    } catch (error) {
      throw this.remember(error);
    }
  }

  private readHead(): Promise<Uint8Array> {
    this.head ??= this.fetch(0, Math.min(this.headLength, this.size));
    return this.head;
  }

  private async fetch(offset: number, length: number): Promise<Uint8Array> {
    let bytes: Uint8Array;
    try {
      bytes = await this.inner.read(offset, length);
    } catch (error) {
      throw this.remember(error);
    }
    this.count(bytes.length);
    // A source that over-delivers must not make a check look past the range it asked for.
    return bytes.length > length ? bytes.subarray(0, length) : bytes;
  }

  private count(length: number): void {
    this.consumed += length;
    this.onProgress?.(this.consumed);
  }

  private remember(error: unknown): unknown {
    this.sourceErrors.add(error);
    return error;
  }
}
