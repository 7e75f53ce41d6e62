import { ActiveMarkupScanner, findActiveMarkup } from "./active-markup.js";
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

/**
 * Chunks of numbers with a fixed layout, where no text can hide. Every other chunk (text, EXIF,
 * private and unknown ones, and the pixel data, which stored deflate blocks leave readable) is
 * read for active markup as it streams past.
 */
const INERT_CHUNKS = new Set([
  "IHDR", "PLTE", "IEND", "tRNS", "cHRM", "gAMA", "sBIT", "sRGB", "cICP", "mDCv", "cLLi", "bKGD", "hIST", "pHYs", "tIME",
  "acTL", "fcTL", "oFFs", "sTER",
]);

interface Chunk {
  type: string;
  data: Uint8Array;
}

/**
 * Walks every chunk of a PNG in one streamed pass: the file must end with IEND (else truncated),
 * nothing may follow it (a polyglot's second file), and no chunk but the INERT_CHUNKS may carry
 * active markup (an image that is also a page or a PHP script; see ActiveMarkupScanner), read as
 * stored and, for compressed text (zTXt, iTXt), inflated with a bound. Only text chunks are kept
 * in memory, each at most MAX_TEXT_BYTES.
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
  /** Markup in the current chunk's data as stored; undefined for INERT_CHUNKS. */
  private markup: ActiveMarkupScanner | undefined;

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
        const data = chunk.subarray(i, i + Math.min(take, Math.max(0, this.remaining - CRC_BYTES))); // the CRC is not data
        this.collect(data);
        const markup = this.markup?.push(data);
        if (markup) return this.markupFound(markup);
        this.remaining -= take;
        i += take;
        if (this.remaining === 0) {
          const problem = this.endChunk();
          if (problem) return problem;
        }
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
    this.markup = INERT_CHUNKS.has(this.type) ? undefined : new ActiveMarkupScanner();
    this.remaining = length + CRC_BYTES;
    return undefined;
  }

  private collect(data: Uint8Array): void {
    if (!this.text) return;
    this.text.set(data, this.textFill);
    this.textFill += data.length;
  }

  private endChunk(): CheckResult | undefined {
    const markup = this.markup?.finish();
    if (markup) return this.markupFound(markup);
    if (this.text) this.texts.push({ type: this.type, data: this.text });
    this.text = undefined;
    this.markup = undefined;
    this.remaining = -1;
    if (this.type === "IEND") this.ended = true;
    return undefined;
  }

  private markupFound(markup: string): CheckResult {
    return failed(NAME, "IMAGE_ACTIVE_TEXT", `a ${JSON.stringify(this.type)} chunk contains ${markup}`);
  }
}

/**
 * Why a compressed text chunk is refused, or undefined: its text is inflated, with a bound, and
 * read for markup (the chunk as stored was read while it streamed).
 */
async function inspectText(chunk: Chunk): Promise<string | undefined> {
  const compressedAt = compressedTextStart(chunk, chunk.data.indexOf(0));
  if (compressedAt === undefined) return undefined;
  const text = await inflateBounded(chunk.data.subarray(compressedAt), "deflate", MAX_TEXT_BYTES);
  if (!text.ok) return `the compressed ${chunk.type} chunk cannot be inspected: ${text.why}`;
  const markup = findActiveMarkup(text.value);
  return markup && `the text of a ${chunk.type} chunk contains ${markup}`;
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
