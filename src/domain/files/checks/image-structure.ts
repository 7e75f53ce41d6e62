import type { ByteSource } from "./byte-source.js";
import { failed, passed, type CheckResult } from "./check-result.js";
import { CONTENT_TYPES, type ContentType } from "./content-types.js";
import { u32le } from "./bytes.js";
import { checkJpegEnd } from "./jpeg-end.js";
import { checkPngChunks } from "./png-chunks.js";

const NAME = "image_structure";

/**
 * The container must end where the format says it ends. Bytes after the end are how
 * polyglots hide a second file (a PNG that is also an HTML page or a ZIP), so they are refused,
 * for every raster type; PNG text chunks must not carry active markup either.
 */
export async function checkImageStructure(type: ContentType, source: ByteSource): Promise<CheckResult> {
  if (type === CONTENT_TYPES.png) return checkPngChunks(source);
  if (type === CONTENT_TYPES.webp) return checkRiffLength(source);
  if (type === CONTENT_TYPES.jpeg) return checkJpegEnd(source);
  return passed(NAME);
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
