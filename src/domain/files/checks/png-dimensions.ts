import type { ByteSource } from "./byte-source.js";
import { hasBytesAt, u32be } from "./bytes.js";
import { crc32 } from "./crc32.js";
import { dimensions, unreadable, type Dimensions } from "./dimensions.js";

/** Signature (8) + IHDR length and type (8) + IHDR data (13) + CRC (4). */
const HEADER_BYTES = 33;

/** PNG stores the size in the IHDR chunk, which the specification requires to come first. */
export async function readPngDimensions(source: ByteSource): Promise<Dimensions> {
  const header = await source.read(0, HEADER_BYTES);
  if (header.length < HEADER_BYTES) return unreadable("the file ends before the IHDR chunk is complete");
  if (u32be(header, 8) !== 13 || !hasBytesAt(header, 12, "IHDR")) {
    return unreadable("the first chunk is not a 13-byte IHDR");
  }
  // A corrupted header is not an image; checking the CRC also stops a hand-edited size field.
  if (crc32(header.subarray(12, 29)) !== u32be(header, 29)) return unreadable("the IHDR chunk CRC does not match");
  const width = u32be(header, 16)!;
  const height = u32be(header, 20)!;
  // The specification bounds both at 2^31 - 1 and forbids zero.
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) {
    return unreadable(`IHDR declares an invalid size ${width} x ${height}`);
  }
  return dimensions(width, height);
}
