import { findActiveMarkup } from "./active-markup.js";
import type { ByteSource } from "./byte-source.js";
import { u32be } from "./bytes.js";
import { failed, passed, type CheckResult } from "./check-result.js";
import { inflateBounded } from "./inflate.js";

const NAME = "image_structure";

const SIGNATURE_BYTES = 8;
const HEADER_BYTES = 8;
const CRC_BYTES = 4;

/** Metadata text larger than this is not inspected but refused: no real image carries it. */
const MAX_TEXT_BYTES = 1024 * 1024;

const TEXT_CHUNKS = new Set(["tEXt", "zTXt", "iTXt"]);

interface Chunk {
  type: string;
  data: Uint8Array;
}

/**
 * Walks every chunk of a PNG in one streamed pass: the file must end with IEND (else truncated),
 * nothing may follow it (a polyglot's second file), and no text chunk (tEXt, zTXt, iTXt, the
 * compressed ones inflated with a bound) may carry active markup (an image that is also a page
 * or a PHP script). Only text chunks are kept in memory, each at most MAX_TEXT_BYTES.
 */
export async function checkPngChunks(source: ByteSource): Promise<CheckResult> {
  const walker = new ChunkWalker(source.size);
  for await (const chunk of source.stream()) {
    const problem = walker.push(chunk);
    if (problem) return problem;
    for (const text of walker.takeTexts()) {
      const markup = await inspectText(text);
      if (markup) return failed(NAME, "IMAGE_ACTIVE_TEXT", markup);
    }
  }
  if (!walker.ended) return failed(NAME, "IMAGE_TRUNCATED", "the file ends before its IEND chunk");
  return passed(NAME);
}

/** A byte-at-a-time chunk parser, so chunk boundaries may fall anywhere in the stream. */
class ChunkWalker {
  ended = false;
  constructor(private readonly size: number) {}

  private offset = 0;
  private header = new Uint8Array(HEADER_BYTES);
  private headerFill = 0;
  /** Bytes of the current chunk's data and CRC still to come; -1 while reading a header. */
  private remaining = -SIGNATURE_BYTES - 1;
  private type = "";
  private text: Uint8Array | undefined;
  private textFill = 0;
  private texts: Chunk[] = [];

  push(chunk: Uint8Array): CheckResult | undefined {
    let i = 0;
    while (i < chunk.length) {
      if (this.ended) return failed(NAME, "TRAILING_DATA", `${this.size - this.offset - i} bytes follow the IEND chunk`);
      if (this.remaining < -1) {
        const skip = Math.min(chunk.length - i, -1 - this.remaining);
        this.remaining += skip; // the signature, checked by magic_bytes
        i += skip;
      } else if (this.remaining === -1) {
        this.header[this.headerFill++] = chunk[i++];
        if (this.headerFill === HEADER_BYTES) {
          const problem = this.startChunk();
          if (problem) return problem;
        }
      } else {
        const take = Math.min(chunk.length - i, this.remaining);
        this.collect(chunk.subarray(i, i + take));
        this.remaining -= take;
        i += take;
        if (this.remaining === 0) this.endChunk();
      }
    }
    this.offset += chunk.length;
    return undefined;
  }

  takeTexts(): Chunk[] {
    const texts = this.texts;
    this.texts = [];
    return texts;
  }

  private startChunk(): CheckResult | undefined {
    const length = u32be(this.header, 0)!;
    this.type = new TextDecoder("latin1").decode(this.header.subarray(4, 8));
    this.headerFill = 0;
    if (length > 0x7fffffff) return failed(NAME, "IMAGE_TRUNCATED", `chunk ${this.type} declares an invalid length`);
    if (TEXT_CHUNKS.has(this.type)) {
      if (length > MAX_TEXT_BYTES) return failed(NAME, "IMAGE_ACTIVE_TEXT", `${this.type} chunk of ${length} bytes exceeds ${MAX_TEXT_BYTES}`);
      this.text = new Uint8Array(length);
      this.textFill = 0;
    }
    this.remaining = length + CRC_BYTES;
    if (this.remaining === 0) this.endChunk();
    return undefined;
  }

  private collect(bytes: Uint8Array): void {
    if (!this.text) return;
    const room = this.text.length - this.textFill;
    const data = bytes.subarray(0, Math.max(0, room)); // the CRC is not text
    this.text.set(data, this.textFill);
    this.textFill += data.length;
  }

  private endChunk(): void {
    if (this.text) this.texts.push({ type: this.type, data: this.text });
    this.text = undefined;
    this.remaining = -1;
    if (this.type === "IEND") this.ended = true;
  }
}

/** Why a text chunk is refused, or undefined. Compressed text is inflated, with a bound. */
async function inspectText(chunk: Chunk): Promise<string | undefined> {
  const keywordEnd = chunk.data.indexOf(0);
  const parts = [chunk.data];
  const compressedAt = compressedTextStart(chunk, keywordEnd);
  if (compressedAt !== undefined) {
    const text = await inflateBounded(chunk.data.subarray(compressedAt), "deflate", MAX_TEXT_BYTES);
    if (!text.ok) return `the compressed ${chunk.type} chunk cannot be inspected: ${text.why}`;
    parts.push(text.value);
  }
  for (const part of parts) {
    const markup = findActiveMarkup(part);
    if (markup) return `a ${chunk.type} chunk contains ${JSON.stringify(markup)}`;
  }
  return undefined;
}

/** Where compressed text starts: zTXt after keyword and method; iTXt when its flag says so. */
function compressedTextStart(chunk: Chunk, keywordEnd: number): number | undefined {
  if (keywordEnd < 0) return undefined;
  if (chunk.type === "zTXt") return keywordEnd + 2;
  if (chunk.type !== "iTXt" || chunk.data[keywordEnd + 1] !== 1) return undefined;
  const languageEnd = chunk.data.indexOf(0, keywordEnd + 3);
  const translatedEnd = languageEnd < 0 ? -1 : chunk.data.indexOf(0, languageEnd + 1);
  return translatedEnd < 0 ? undefined : translatedEnd + 1;
}
