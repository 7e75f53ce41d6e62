import type { ByteSource } from "./byte-source.js";
import { failed, passed, type CheckResult } from "./check-result.js";
import { CONTENT_TYPES, type ContentType } from "./content-types.js";
import { hasBytesAt, lastIndexOfBytes, u32le } from "./bytes.js";
import { readTail } from "./read-tail.js";

const NAME = "image_structure";

/** The complete IEND chunk: zero length, type, and its fixed CRC. */
const IEND_CHUNK = [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

/** How far back from the end an IEND is looked for, to tell appended data from truncation. */
const IEND_SEARCH_BYTES = 4096;

/**
 * The container must end where the format says it ends. Bytes after the end are how
 * polyglots hide a second file (a PNG that is also an HTML page or a ZIP), so they are refused.
 * JPEG is not checked: data after EOI is common in camera files (MPF, vendor trailers).
 */
export async function checkImageStructure(type: ContentType, source: ByteSource): Promise<CheckResult> {
  if (type === CONTENT_TYPES.png) return checkPngEnd(source);
  if (type === CONTENT_TYPES.webp) return checkRiffLength(source);
  return passed(NAME);
}

async function checkPngEnd(source: ByteSource): Promise<CheckResult> {
  const last = await readTail(source, IEND_CHUNK.length);
  if (last.length === IEND_CHUNK.length && hasBytesAt(last, 0, IEND_CHUNK)) return passed(NAME);
  const tail = await readTail(source, IEND_SEARCH_BYTES);
  const iend = lastIndexOfBytes(tail, IEND_CHUNK);
  if (iend >= 0) {
    const extra = tail.length - iend - IEND_CHUNK.length;
    return failed(NAME, "TRAILING_DATA", `${extra} bytes follow the IEND chunk`);
  }
  return failed(
    NAME,
    "IMAGE_TRUNCATED",
    `the file does not end with an IEND chunk and none is in its last ${tail.length} bytes (truncated, or large appended data)`,
  );
}

/** A RIFF file is exactly its declared length plus the 8-byte RIFF header (plus a pad byte if odd). */
async function checkRiffLength(source: ByteSource): Promise<CheckResult> {
  const riffLength = u32le(await source.read(4, 4), 0);
  if (riffLength === undefined) return failed(NAME, "IMAGE_TRUNCATED", "the RIFF header is truncated");
  const expected = riffLength + 8;
  const padded = expected + (riffLength % 2);
  if (source.size === expected || source.size === padded) return passed(NAME);
  if (source.size > padded) {
    return failed(NAME, "TRAILING_DATA", `${source.size - padded} bytes follow the RIFF container`);
  }
  return failed(NAME, "IMAGE_TRUNCATED", `the RIFF container declares ${expected} bytes but the file has ${source.size}`);
}
