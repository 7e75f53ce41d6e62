import type { ByteSource } from "./byte-source.js";
import { failed, passed, type CheckResult } from "./check-result.js";
import { CONTENT_TYPES, type ContentType } from "./content-types.js";
import type { Dimensions } from "./dimensions.js";
import { readJpegDimensions } from "./jpeg-dimensions.js";
import { readPngDimensions } from "./png-dimensions.js";
import { readWebpDimensions } from "./webp-dimensions.js";

/** The specification's limit for each side. */
export const DEFAULT_MAX_DIMENSION = 8192;

const NAME = "image_dimensions";

const READERS: Partial<Record<ContentType, (source: ByteSource) => Promise<Dimensions>>> = {
  [CONTENT_TYPES.png]: readPngDimensions,
  [CONTENT_TYPES.jpeg]: readJpegDimensions,
  [CONTENT_TYPES.webp]: readWebpDimensions,
};

/**
 * Reads the pixel size from the header and bounds each side. Never decodes pixels: the point is
 * to refuse a decompression bomb before anything downstream (thumbnails, viewers) decodes it.
 */
export async function checkImageDimensions(
  type: ContentType,
  source: ByteSource,
  maxDimension = DEFAULT_MAX_DIMENSION,
): Promise<CheckResult> {
  const reader = READERS[type];
  if (!reader) return failed(NAME, "DIMENSIONS_UNREADABLE", `no dimension reader for ${type}`);
  const found = await reader(source);
  if (!found.readable) return failed(NAME, "DIMENSIONS_UNREADABLE", found.why);
  if (found.width > maxDimension || found.height > maxDimension) {
    return failed(
      NAME,
      "DIMENSIONS_TOO_LARGE",
      `${found.width} x ${found.height} exceeds the limit of ${maxDimension} x ${maxDimension}`,
    );
  }
  return passed(NAME);
}
