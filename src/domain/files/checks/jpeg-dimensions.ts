import type { ByteSource } from "./byte-source.js";
import { u16be } from "./bytes.js";
import { dimensions, unreadable, type Dimensions } from "./dimensions.js";

/**
 * Segments visited before giving up. Real files have a few dozen before the frame header; the
 * cap bounds the number of ranged reads a hostile file made of tiny segments can cause.
 */
const MAX_SEGMENTS = 256;

/** Marker, length, precision, height, width: all a frame header needs to be read. */
const SEGMENT_HEADER_BYTES = 9;

const SOS = 0xda;
const EOI = 0xd9;
const SOI = 0xd8;

/**
 * Walks the marker segments from SOI to the first frame header (SOFn), reading only each
 * segment's header and jumping over its body: a 20 MB photo with a 60 KB EXIF block costs a few
 * small reads, not the EXIF block.
 */
export async function readJpegDimensions(source: ByteSource): Promise<Dimensions> {
  const start = await source.read(0, 2);
  if (start[0] !== 0xff || start[1] !== SOI) return unreadable("the file does not start with SOI");
  let position = 2;
  for (let visited = 0; visited < MAX_SEGMENTS; visited++) {
    const header = await source.read(position, SEGMENT_HEADER_BYTES);
    if (header.length < 2) return unreadable("the file ends before a frame header (SOF)");
    if (header[0] !== 0xff) return unreadable(`no marker at byte ${position}`);
    const marker = header[1];
    if (marker === 0xff) {
      position += 1; // fill byte: markers may be preceded by any number of 0xFF
      continue;
    }
    if (isStandalone(marker)) {
      position += 2;
      continue;
    }
    if (marker === SOS || marker === EOI || marker === SOI) {
      return unreadable(`marker 0x${marker.toString(16)} before any frame header (SOF)`);
    }
    const length = u16be(header, 2);
    if (length === undefined || length < 2) return unreadable(`invalid segment length at byte ${position}`);
    if (isStartOfFrame(marker)) return frameDimensions(header, length);
    position += 2 + length;
  }
  return unreadable(`no frame header within the first ${MAX_SEGMENTS} segments`);
}

function frameDimensions(header: Uint8Array, length: number): Dimensions {
  const height = u16be(header, 5);
  const width = u16be(header, 7);
  if (length < 8 || height === undefined || width === undefined) return unreadable("the frame header is truncated");
  // Height 0 defers the size to a DNL marker after the first scan; we do not read scans.
  if (height === 0 || width === 0) return unreadable(`the frame header declares ${width} x ${height}`);
  return dimensions(width, height);
}

/** SOF0..SOF15 are C0..CF except DHT (C4), JPG (C8) and DAC (CC), which share the range. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** TEM and RST0..RST7 carry no length field. */
function isStandalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}
