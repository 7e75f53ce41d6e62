import { findActiveMarkup } from "./active-markup.js";
import type { ByteSource } from "./byte-source.js";
import { hasBytesAt, u16be } from "./bytes.js";
import { failed, passed, type CheckResult } from "./check-result.js";
import { readTail } from "./read-tail.js";
import { EOCD_SEARCH_BYTES, findEndOfCentralDirectory } from "./zip-directory.js";

const NAME = "image_structure";

const EOI = [0xff, 0xd9];
const SOS = 0xda;

/** The end of the file searched for an earlier EOI and for markup. */
const TAIL_BYTES = 4096;
/** Segments walked to find the first scan; as in jpeg-dimensions, it bounds the reads. */
const MAX_SEGMENTS = 256;

/**
 * A JPEG must end with its EOI marker, and nothing may follow the image's end: a JPEG/ZIP or
 * JPEG/HTML polyglot appends its second file after EOI. Bounded reads: the segment headers up to
 * the first scan, the last 4 KB and the ZIP end-record window. Inside entropy-coded data a 0xFF is
 * always stuffed, so an FF D9 in the tail before the last one is an earlier end of image. (Camera
 * files with an MPF second image after EOI are refused too: an upload never needs it.)
 */
export async function checkJpegEnd(source: ByteSource): Promise<CheckResult> {
  const tail = await readTail(source, TAIL_BYTES);
  const endsWithEoi = hasBytesAt(tail, tail.length - 2, EOI);
  const tailStart = source.size - tail.length;
  const scanStart = await firstScanOffset(source);
  const searched = tail.subarray(Math.max(0, scanStart - tailStart), endsWithEoi ? tail.length - 2 : tail.length);
  if (indexOfEoi(searched) >= 0) return failed(NAME, "TRAILING_DATA", "data follows the EOI marker");
  if (!endsWithEoi) return failed(NAME, "IMAGE_TRUNCATED", "the file does not end with an EOI marker (truncated, or large appended data)");
  const markup = findActiveMarkup(searched);
  if (markup) return failed(NAME, "TRAILING_DATA", `the end of the image contains ${JSON.stringify(markup)}`);
  if (findEndOfCentralDirectory(await readTail(source, EOCD_SEARCH_BYTES)) >= 0) {
    return failed(NAME, "TRAILING_DATA", "a ZIP archive ends the file");
  }
  return passed(NAME);
}

function indexOfEoi(bytes: Uint8Array): number {
  for (let i = 0; i + 1 < bytes.length; i++) if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return i;
  return -1;
}

/**
 * Offset of the first SOS marker: before it, segments (EXIF thumbnails) may hold a whole JPEG,
 * EOI included. When the walk fails, the whole file counts as header (the dimension check reports
 * the broken structure).
 */
async function firstScanOffset(source: ByteSource): Promise<number> {
  let position = 2;
  for (let visited = 0; visited < MAX_SEGMENTS; visited++) {
    const header = await source.read(position, 4);
    if (header.length < 4 || header[0] !== 0xff) return source.size;
    if (header[1] === 0xff) {
      position += 1;
      continue;
    }
    if (header[1] === SOS) return position;
    if (header[1] === 0x01 || (header[1] >= 0xd0 && header[1] <= 0xd7)) {
      position += 2;
      continue;
    }
    position += 2 + u16be(header, 2)!;
  }
  return source.size;
}
