import { describe, expect, it } from "vitest";
import type { ByteSource } from "../../../../src/domain/files/checks/byte-source.js";
import { checkImageDimensions } from "../../../../src/domain/files/checks/image-dimensions.js";
import { readJpegDimensions } from "../../../../src/domain/files/checks/jpeg-dimensions.js";
import { readPngDimensions } from "../../../../src/domain/files/checks/png-dimensions.js";
import { readWebpDimensions } from "../../../../src/domain/files/checks/webp-dimensions.js";
import { bufferSource, concat, jpeg, png, webp } from "../../../fixtures/files/index.js";

describe("header dimension readers", () => {
  it.each([
    [1, 1],
    [640, 480],
    [8192, 3],
  ])("read PNG, JPEG and every WebP flavour at %i x %i", async (width, height) => {
    const expected = { readable: true, width, height };
    await expect(readPngDimensions(bufferSource(png(width, height)))).resolves.toEqual(expected);
    await expect(readJpegDimensions(bufferSource(jpeg(width, height)))).resolves.toEqual(expected);
    for (const format of ["VP8", "VP8L", "VP8X"] as const) {
      await expect(readWebpDimensions(bufferSource(webp(width, height, { format }))), format).resolves.toEqual(expected);
    }
  });

  it("reads VP8X canvases beyond the 16384 a single frame can hold", async () => {
    await expect(readWebpDimensions(bufferSource(webp(1 << 24, 2, { format: "VP8X" })))).resolves.toEqual({
      readable: true,
      width: 1 << 24,
      height: 2,
    });
  });

  it("skips JPEG fill bytes and standalone markers", async () => {
    const bytes = jpeg(300, 200);
    // Insert fill bytes and an RST marker between APP0 (ends at byte 20) and DQT.
    const padded = concat(bytes.subarray(0, 20), [0xff, 0xff, 0xff, 0xd0], bytes.subarray(20));
    await expect(readJpegDimensions(bufferSource(padded))).resolves.toEqual({ readable: true, width: 300, height: 200 });
  });

  it("does not mistake DHT (C4) for a frame header", async () => {
    // A DHT before the SOF: its bytes would read as a 0 x 0 or garbage size if taken for SOFn.
    const bytes = jpeg(300, 200);
    const dht = [0xff, 0xc4, 0x00, 0x13, 0x00, ...new Array(16).fill(0x7f)];
    const withDht = concat(bytes.subarray(0, 20), dht, bytes.subarray(20));
    await expect(readJpegDimensions(bufferSource(withDht))).resolves.toEqual({ readable: true, width: 300, height: 200 });
  });

  it("jumps over JPEG segment bodies with ranged reads", async () => {
    const source = bufferSource(jpeg(4000, 3000, { exifBytes: 65_000, scanBytes: 1_000_000 }));
    await readJpegDimensions(source);
    expect(source.reads.every((read) => read.length <= 9)).toBe(true);
    expect(source.bytesServed).toBeLessThan(128);
  });

  it("gives up on an endless chain of tiny segments", async () => {
    const segments = Array.from({ length: 1000 }, () => [0xff, 0xfe, 0x00, 0x02]).flat(); // empty COM segments
    const bytes = concat([0xff, 0xd8], segments, jpeg(10, 10).subarray(2));
    const source = bufferSource(bytes);
    await expect(readJpegDimensions(source)).resolves.toMatchObject({ readable: false });
    expect(source.reads.length).toBeLessThanOrEqual(257);
  });
});

describe("checkImageDimensions", () => {
  it("accepts exactly the limit and refuses one more pixel on either side", async () => {
    const at = (w: number, h: number) => checkImageDimensions("image/png", bufferSource(png(w, h)));
    await expect(at(8192, 8192)).resolves.toMatchObject({ passed: true });
    await expect(at(8193, 8192)).resolves.toMatchObject({ reason: "DIMENSIONS_TOO_LARGE" });
    await expect(at(8192, 8193)).resolves.toMatchObject({ reason: "DIMENSIONS_TOO_LARGE" });
  });

  it("uses the configured limit", async () => {
    const source = bufferSource(jpeg(2000, 10));
    await expect(checkImageDimensions("image/jpeg", source, 1000)).resolves.toMatchObject({ reason: "DIMENSIONS_TOO_LARGE" });
  });

  it("refuses a type it has no reader for", async () => {
    const source: ByteSource = bufferSource(new Uint8Array(10));
    await expect(checkImageDimensions("image/svg+xml", source)).resolves.toMatchObject({ reason: "DIMENSIONS_UNREADABLE" });
  });
});
