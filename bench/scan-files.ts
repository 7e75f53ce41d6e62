/** Files of the scan benchmarks, built from the test fixtures to an exact size. */
import { jpeg, pdf, png } from "../test/fixtures/files/index.js";

/** About 100 KB: noise pixels do not compress, so the file is roughly width × height bytes. */
export function photoPng(): Uint8Array {
  return png(316, 316, { noise: true });
}

/** A 4000 × 3000 JPEG with a 60 KB EXIF block before its frame header and `padding` scan bytes. */
export function largeJpeg(padding: number): Uint8Array {
  return jpeg(4000, 3000, { exifBytes: 60_000, scanBytes: padding });
}

/** A one-page PDF carrying `padding` zero bytes in a stream object. */
export function largePdf(padding: number): Uint8Array {
  return pdf({ embedded: new Uint8Array(padding) });
}

/**
 * `make(padding)` adjusted until the file is exactly `size` bytes. A PDF's length field and
 * offsets grow with the padding, so this takes a couple of rounds rather than one subtraction.
 */
export function fileOfSize(size: number, make: (padding: number) => Uint8Array): Uint8Array {
  let padding = size;
  for (let round = 0; round < 5; round++) {
    const bytes = make(padding);
    if (bytes.length === size) return bytes;
    padding += size - bytes.length;
  }
  throw new Error(`could not build a file of exactly ${size} bytes`);
}
