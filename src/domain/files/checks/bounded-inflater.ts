/** How an inflation ended: the data's own end, the cap on output, or corrupt or cut-short data. */
export type InflateEnd = "complete" | "over-limit" | "corrupt";

/**
 * Inflates compressed data fed to it piece by piece, counting the bytes it actually produces
 * (never what a header declares) and stopping as soon as they pass `maxOutputBytes`: a bomb is
 * cut off at the cap, neither held in memory nor expanded to its end. Each piece of output is
 * handed to `onOutput` and then dropped.
 *
 * `write` answers false once inflation has stopped (cap or corrupt data), so the caller can stop
 * reading input; `finish` says how it ended. Never throws on content.
 */
export class BoundedInflater {
  private produced = 0;
  private end: InflateEnd | undefined;
  private readonly writer: WritableStreamDefaultWriter<BufferSource>;
  private readonly pumped: Promise<void>;

  constructor(
    format: "deflate" | "deflate-raw",
    private readonly maxOutputBytes: number,
    private readonly onOutput: (bytes: Uint8Array) => void = () => undefined,
  ) {
    const stream = new DecompressionStream(format);
    this.writer = stream.writable.getWriter();
    // A write waits for the output side to be read; the pump reads concurrently, so neither waits forever.
    this.writer.closed.catch(() => undefined);
    this.pumped = this.pump(stream.readable.getReader());
  }

  /** Bytes produced so far (at most one output piece past the cap). */
  get bytesProduced(): number {
    return this.produced;
  }

  get stopped(): boolean {
    return this.end !== undefined;
  }

  async write(input: Uint8Array): Promise<boolean> {
    if (this.end !== undefined) return false;
    try {
      await this.writer.write(input as Uint8Array<ArrayBuffer>);
    } catch (error) {
      this.end ??= endOf(error);
    }
    return this.end === undefined;
  }

  /** Ends the input. Data that stops before its final block is "corrupt" (cut short). */
  async finish(): Promise<InflateEnd> {
    if (this.end === undefined) await this.writer.close().catch((error: unknown) => (this.end ??= endOf(error)));
    else await this.writer.abort().catch(() => undefined);
    await this.pumped;
    return this.end ?? "complete";
  }

  private async pump(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        this.produced += value.length;
        if (this.produced > this.maxOutputBytes) {
          this.end ??= "over-limit";
          this.onOutput(value.subarray(0, value.length - (this.produced - this.maxOutputBytes)));
          await reader.cancel().catch(() => undefined);
          await this.writer.abort().catch(() => undefined);
          return;
        }
        this.onOutput(value);
      }
    } catch (error) {
      this.end ??= endOf(error);
    }
  }
}

/**
 * Bytes after the final block are not part of the data (every inflater stops there, as PDF
 * readers do with the end-of-line before `endstream`); Node reports them as an error.
 */
function endOf(error: unknown): InflateEnd {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_TRAILING_JUNK_AFTER_STREAM_END" ? "complete" : "corrupt";
}

/** A zlib stream (PDF's FlateDecode, RFC 1950) starts with these two bytes. */
export function isZlibHeader(first: number, second: number): boolean {
  return (first & 0x0f) === 8 && first >> 4 <= 7 && ((first << 8) | second) % 31 === 0;
}
