import type { ByteSource } from "./byte-source.js";
import { hasBytesAt, u16le, u24le, u32le } from "./bytes.js";
import { dimensions, unreadable, type Dimensions } from "./dimensions.js";

/** RIFF header (12) + first chunk header (8) + the 10 bytes every bitstream header fits in. */
const HEADER_BYTES = 30;

/**
 * WebP's first chunk says which bitstream follows and where its size lives: lossy VP8 (frame
 * header), lossless VP8L (packed 14-bit fields) or extended VP8X (24-bit canvas size).
 */
export async function readWebpDimensions(source: ByteSource): Promise<Dimensions> {
  const header = await source.read(0, HEADER_BYTES);
  if (!hasBytesAt(header, 0, "RIFF") || !hasBytesAt(header, 8, "WEBP")) return unreadable("not a RIFF WEBP container");
  if (hasBytesAt(header, 12, "VP8 ")) return lossy(header);
  if (hasBytesAt(header, 12, "VP8L")) return lossless(header);
  if (hasBytesAt(header, 12, "VP8X")) return extended(header);
  return unreadable("the first chunk is not VP8, VP8L or VP8X");
}

function lossy(header: Uint8Array): Dimensions {
  // Frame tag (3 bytes) then the key-frame start code 9D 01 2A.
  if (!hasBytesAt(header, 23, [0x9d, 0x01, 0x2a])) return unreadable("the VP8 key frame start code is missing");
  const width = u16le(header, 26);
  const height = u16le(header, 28);
  if (width === undefined || height === undefined) return unreadable("the VP8 frame header is truncated");
  return nonZero(width & 0x3fff, height & 0x3fff); // the top two bits are scaling flags
}

function lossless(header: Uint8Array): Dimensions {
  if (header[20] !== 0x2f) return unreadable("the VP8L signature byte is missing");
  const bits = u32le(header, 21);
  if (bits === undefined) return unreadable("the VP8L header is truncated");
  return dimensions((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
}

function extended(header: Uint8Array): Dimensions {
  const widthMinusOne = u24le(header, 24);
  const heightMinusOne = u24le(header, 27);
  if (widthMinusOne === undefined || heightMinusOne === undefined) return unreadable("the VP8X header is truncated");
  return dimensions(widthMinusOne + 1, heightMinusOne + 1);
}

function nonZero(width: number, height: number): Dimensions {
  if (width === 0 || height === 0) return unreadable(`the frame header declares ${width} x ${height}`);
  return dimensions(width, height);
}
