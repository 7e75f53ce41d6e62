import { ActiveMarkupScanner } from "./active-markup.js";
import type { ByteSource } from "./byte-source.js";
import { failed, passed, type CheckResult } from "./check-result.js";
import { readTail } from "./read-tail.js";
import { EOCD_SEARCH_BYTES, findEndOfCentralDirectory } from "./zip-directory.js";

const NAME = "image_structure";

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const COM = 0xfe;

const State = {
  Signature: 0,
  /** Between segments: the next byte must be 0xFF. */
  Marker: 1,
  /** After 0xFF: a marker code, or more 0xFF fill. */
  MarkerCode: 2,
  LengthHigh: 3,
  LengthLow: 4,
  Body: 5,
  /** Entropy-coded data after SOS, up to the next marker that is not RSTn. */
  Scan: 6,
  /** A 0xFF inside entropy-coded data: stuffing (FF 00), a restart, fill, or a marker. */
  ScanFf: 7,
  Ended: 8,
} as const;
type State = (typeof State)[keyof typeof State];

/**
 * A JPEG is read to its end as a decoder reads it, in one streamed pass: segment by segment from
 * SOI, through every scan's entropy-coded data (where 0xFF is always stuffed as FF 00, so the
 * first real marker is found without decoding), to the EOI. Then:
 * - nothing may follow EOI (a JPEG/HTML or JPEG/ZIP polyglot appends its second file there;
 *   camera files with an MPF second image after EOI are refused too: an upload never needs it);
 * - comment (COM) and application (APPn) segments, and the entropy-coded data itself, must not
 *   carry active markup (see ActiveMarkupScanner, which tells XMP's XML from a page);
 * - no ZIP end record may end the file (a ZIP reader looks for it from the end).
 * Constant memory: segment bodies are looked at as they pass, never kept.
 */
export async function checkJpegEnd(source: ByteSource): Promise<CheckResult> {
  const walker = new JpegWalker();
  for await (const chunk of source.stream()) {
    const problem = walker.push(chunk);
    if (problem) return problem;
  }
  const problem = walker.finish();
  if (problem) return problem;
  if (findEndOfCentralDirectory(await readTail(source, EOCD_SEARCH_BYTES)) >= 0) {
    return failed(NAME, "TRAILING_DATA", "a ZIP archive ends the file");
  }
  return passed(NAME);
}

class JpegWalker {
  private state: State = State.Signature;
  private offset = 0;
  private marker = 0;
  private remaining = 0;
  /** Markup in the segment being read (COM, APPn); undefined for other segments. */
  private segmentMarkup: ActiveMarkupScanner | undefined;
  /** One scanner over all entropy-coded data: markup hidden between the pixels and the EOI. */
  private readonly scanMarkup = new ActiveMarkupScanner();

  push(chunk: Uint8Array): CheckResult | undefined {
    let i = 0;
    while (i < chunk.length) {
      const problem = this.state === State.Body || this.state === State.Scan ? this.run(chunk, i) : this.step(chunk[i], i);
      if (typeof problem === "number") i = problem;
      else if (problem) return problem;
      else i++;
    }
    this.offset += chunk.length;
    return undefined;
  }

  finish(): CheckResult | undefined {
    if (this.state === State.Ended) return undefined;
    return failed(NAME, "IMAGE_TRUNCATED", "the file ends before its EOI marker");
  }

  /** Consumes a run of segment body or entropy-coded data at once; answers where it stopped. */
  private run(chunk: Uint8Array, from: number): number | CheckResult {
    if (this.state === State.Scan) {
      const ff = chunk.indexOf(0xff, from);
      const end = ff < 0 ? chunk.length : ff;
      const markup = this.scanMarkup.push(chunk.subarray(from, end));
      if (markup) return failed(NAME, "IMAGE_ACTIVE_TEXT", `the image data contains ${markup}`);
      if (ff >= 0) this.state = State.ScanFf;
      return ff < 0 ? end : end + 1;
    }
    const end = Math.min(chunk.length, from + this.remaining);
    const markup = this.segmentMarkup?.push(chunk.subarray(from, end));
    if (markup) return this.markupFound(markup);
    this.remaining -= end - from;
    if (this.remaining === 0) {
      const problem = this.endSegment();
      if (problem) return problem;
    }
    return end;
  }

  private step(byte: number, index: number): CheckResult | undefined {
    switch (this.state) {
      case State.Signature:
        if (this.offset + index === 1) this.state = State.Marker; // SOI, checked by magic_bytes
        return undefined;
      case State.Marker:
        if (byte !== 0xff) return failed(NAME, "IMAGE_MALFORMED", `no marker at byte ${this.offset + index}`);
        this.state = State.MarkerCode;
        return undefined;
      case State.MarkerCode:
        return this.markerCode(byte, index);
      case State.ScanFf:
        if (byte === 0x00 || (byte >= 0xd0 && byte <= 0xd7)) this.state = State.Scan; // stuffing, RSTn
        else if (byte !== 0xff) return this.markerCode(byte, index);
        return undefined;
      case State.LengthHigh:
        this.remaining = byte << 8;
        this.state = State.LengthLow;
        return undefined;
      case State.LengthLow:
        return this.startSegment(this.remaining | byte, index);
      case State.Ended:
        return failed(NAME, "TRAILING_DATA", `data follows the EOI marker (from byte ${this.offset + index})`);
      default:
        return undefined;
    }
  }

  private markerCode(code: number, index: number): CheckResult | undefined {
    this.state = State.Marker;
    if (code === 0xff) this.state = State.MarkerCode; // fill before a marker
    else if (code === EOI) return this.end();
    else if (code === SOI || code === 0x00) return failed(NAME, "IMAGE_MALFORMED", `unexpected marker 0x${code.toString(16)} at byte ${this.offset + index - 1}`);
    else if (!isStandalone(code)) {
      this.marker = code;
      this.state = State.LengthHigh;
    }
    return undefined;
  }

  private end(): CheckResult | undefined {
    this.state = State.Ended;
    const markup = this.scanMarkup.finish();
    return markup ? failed(NAME, "IMAGE_ACTIVE_TEXT", `the image data contains ${markup}`) : undefined;
  }

  private startSegment(length: number, index: number): CheckResult | undefined {
    if (length < 2) return failed(NAME, "IMAGE_MALFORMED", `invalid segment length at byte ${this.offset + index - 3}`);
    this.remaining = length - 2;
    this.segmentMarkup = isMetadata(this.marker) ? new ActiveMarkupScanner() : undefined;
    this.state = State.Body;
    return this.remaining === 0 ? this.endSegment() : undefined;
  }

  private endSegment(): CheckResult | undefined {
    const markup = this.segmentMarkup?.finish();
    if (markup) return this.markupFound(markup);
    this.segmentMarkup = undefined;
    this.state = this.marker === SOS ? State.Scan : State.Marker;
    return undefined;
  }

  private markupFound(markup: string): CheckResult {
    const segment = this.marker === COM ? "comment (COM)" : `APP${this.marker - 0xe0}`;
    return failed(NAME, "IMAGE_ACTIVE_TEXT", `the ${segment} segment contains ${markup}`);
  }
}

/** Comments and application segments (EXIF, XMP, ICC, Photoshop): where text can be hidden. */
function isMetadata(marker: number): boolean {
  return marker === COM || (marker >= 0xe0 && marker <= 0xef);
}

/** TEM and RST0..RST7 carry no length field. */
function isStandalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}
