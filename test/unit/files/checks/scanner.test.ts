import { describe, expect, it } from "vitest";
import { CONTENT_TYPES } from "../../../../src/domain/files/checks/content-types.js";
import { scanFile } from "../../../../src/domain/files/checks/scanner.js";
import { DEFAULT_SVG_LIMITS } from "../../../../src/domain/files/checks/svg-safety.js";
import {
  bufferSource,
  csv,
  failingSource,
  hostileFiles,
  jpeg,
  pdf,
  png,
  svg,
  webp,
  xls,
  xlsx,
} from "../../../fixtures/files/index.js";

const { jpeg: JPEG, png: PNG, webp: WEBP, svg: SVG, pdf: PDF, csv: CSV, xls: XLS, xlsx: XLSX } = CONTENT_TYPES;

const validFiles: { name: string; contentType: string; bytes: Uint8Array; checks: string[] }[] = [
  { name: "JPEG", contentType: JPEG, bytes: jpeg(640, 480), checks: ["magic_bytes", "image_dimensions", "image_structure"] },
  { name: "JPEG declared image/jpg", contentType: "image/jpg", bytes: jpeg(640, 480), checks: ["magic_bytes", "image_dimensions", "image_structure"] },
  { name: "JPEG with EXIF, progressive", contentType: JPEG, bytes: jpeg(100, 80, { exifBytes: 4000, frameMarker: 0xc2 }), checks: ["magic_bytes", "image_dimensions", "image_structure"] },
  { name: "PNG", contentType: PNG, bytes: png(32, 16), checks: ["magic_bytes", "image_dimensions", "image_structure"] },
  { name: "PNG at the 8192 x 8192 limit", contentType: PNG, bytes: png(8192, 8192), checks: ["magic_bytes", "image_dimensions", "image_structure"] },
  { name: "WebP VP8L", contentType: WEBP, bytes: webp(20, 10, { format: "VP8L" }), checks: ["magic_bytes", "image_dimensions", "image_structure"] },
  { name: "WebP VP8", contentType: WEBP, bytes: webp(20, 10, { format: "VP8" }), checks: ["magic_bytes", "image_dimensions", "image_structure"] },
  { name: "WebP VP8X", contentType: WEBP, bytes: webp(8192, 8192, { format: "VP8X" }), checks: ["magic_bytes", "image_dimensions", "image_structure"] },
  { name: "SVG", contentType: SVG, bytes: svg(), checks: ["magic_bytes", "svg_safety"] },
  { name: "SVG with XML declaration", contentType: "image/svg+xml; charset=utf-8", bytes: svg(undefined, { prolog: '<?xml version="1.0" encoding="UTF-8"?>\n' }), checks: ["magic_bytes", "svg_safety"] },
  { name: "PDF", contentType: PDF, bytes: pdf(), checks: ["magic_bytes", "pdf_active_content", "pdf_structure"] },
  { name: "CSV", contentType: CSV, bytes: csv([["a", "b"], ["1", "2"]]), checks: ["magic_bytes", "csv_structure", "csv_formula_cells"] },
  { name: "CSV whose header starts like a BMP signature", contentType: "text/csv; charset=utf-8", bytes: csv([["BMI", "weight"], ["22", "70"]]), checks: ["magic_bytes", "csv_structure", "csv_formula_cells"] },
  { name: "XLS", contentType: XLS, bytes: xls(), checks: ["magic_bytes", "office_structure"] },
  { name: "XLSX", contentType: XLSX, bytes: xlsx(), checks: ["magic_bytes", "office_structure"] },
  { name: "XLSX with ZIP64 end records", contentType: XLSX, bytes: xlsx({ zip64: true }), checks: ["magic_bytes", "office_structure"] },
];

describe("scanFile: valid files", () => {
  it.each(validFiles)("passes $name", async ({ contentType, bytes, checks }) => {
    const outcome = await scanFile(contentType, bufferSource(bytes));
    expect(outcome.checks.filter((check) => !check.passed)).toEqual([]);
    expect(outcome.passed).toBe(true);
    expect(outcome.checks.map((check) => check.name)).toEqual(checks);
  });
});

describe("scanFile: hostile corpus", () => {
  it("covers every category the corpus promises", () => {
    const names = hostileFiles.map((file) => file.name);
    for (const prefix of ["svg:", "pdf+zip:", "png+html:", "empty file", "png: 100000", "csv: NUL", "csv: Latin-1", "csv: ragged", "exe: MZ named .png", "exe: ELF"]) {
      expect(names.some((name) => name.startsWith(prefix)), prefix).toBe(true);
    }
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(hostileFiles.map((file) => [file.name, file] as const))("rejects %s", async (_name, file) => {
    const outcome = await scanFile(file.contentType, bufferSource(file.bytes));
    expect(outcome.passed).toBe(false);
    const check = outcome.checks.find((candidate) => candidate.name === file.expectedCheck);
    expect(check, JSON.stringify(outcome.checks)).toMatchObject({ passed: false, reason: file.expectedReason });
    expect(check?.message).toBeTruthy();
    // A hostile file must be refused by a rule, not by a crash inside a check.
    expect(outcome.checks.map((candidate) => candidate.reason)).not.toContain("INTERNAL_CHECK_ERROR");
  });
});

describe("scanFile: outcome shape", () => {
  it("skips the type checks when magic_bytes fails, and says so by omitting them", async () => {
    const outcome = await scanFile(PNG, bufferSource(jpeg(10, 10)));
    expect(outcome.checks).toEqual([
      expect.objectContaining({ name: "magic_bytes", passed: false, reason: "MAGIC_MISMATCH" }),
    ]);
  });

  it("runs every type check after magic_bytes even when one fails, recording a reason for each", async () => {
    const outcome = await scanFile(PNG, bufferSource(png(100_000, 1, { trailing: new Uint8Array([1, 2, 3]) })));
    expect(outcome.checks.map((check) => [check.name, check.passed, check.reason])).toEqual([
      ["magic_bytes", true, undefined],
      ["image_dimensions", false, "DIMENSIONS_TOO_LARGE"],
      ["image_structure", false, "TRAILING_DATA"],
    ]);
  });

  it("refuses an unsupported declared type without reading any byte", async () => {
    const source = bufferSource(png(4, 4));
    const outcome = await scanFile("image/gif", source);
    expect(outcome).toMatchObject({ passed: false, bytesRead: 0, checks: [{ name: "magic_bytes", reason: "UNSUPPORTED_CONTENT_TYPE" }] });
    expect(source.bytesServed).toBe(0);
  });

  it("honours a lower maxDimension", async () => {
    const outcome = await scanFile(PNG, bufferSource(png(300, 10)), { maxDimension: 256 });
    expect(outcome.checks[1]).toMatchObject({ name: "image_dimensions", reason: "DIMENSIONS_TOO_LARGE" });
  });

  it("honours the SVG size limit", async () => {
    const outcome = await scanFile(SVG, bufferSource(svg()), { svgLimits: { ...DEFAULT_SVG_LIMITS, maxBytes: 50 } });
    expect(outcome.checks[1]).toMatchObject({ name: "svg_safety", reason: "SVG_TOO_LARGE" });
  });
});

describe("scanFile: bytes read", () => {
  it("streams a 20 MB JPEG with a 60 KB EXIF block once, to its EOI", async () => {
    const bytes = jpeg(4000, 3000, { exifBytes: 60 * 1024, scanBytes: 20 * 1024 * 1024 });
    const source = bufferSource(bytes);
    const outcome = await scanFile(JPEG, source);
    expect(outcome.passed).toBe(true);
    // The head, the segment headers up to the frame (dimensions), every byte once (segments to
    // EOI) and the ZIP end-record window (polyglots).
    expect(outcome.bytesRead).toBeLessThan(16 * 1024 + bytes.length + 65_557);
    expect(outcome.bytesRead).toBe(source.bytesServed);
    expect(source.streams).toBe(1);
  });

  it("reads a PNG's head and streams its chunks once (text chunks can follow the pixels)", async () => {
    const bytes = png(500, 500, { noise: true });
    const source = bufferSource(bytes);
    const outcome = await scanFile(PNG, source);
    expect(bytes.length).toBeGreaterThan(200 * 1024);
    expect(outcome.bytesRead).toBe(4100 + bytes.length);
    expect(source.streams).toBe(1);
  });

  it("reads the head and 64 KB tail of a large PDF and streams it once for its names", async () => {
    const padding = new Uint8Array(1024 * 1024).fill(0x20);
    const bytes = pdf({ embedded: padding });
    const outcome = await scanFile(PDF, bufferSource(bytes));
    expect(outcome.passed).toBe(true);
    expect(outcome.bytesRead).toBeLessThanOrEqual(4100 + 65_557 + bytes.length);
  });

  it("streams every byte of a CSV and reports progress as it goes", async () => {
    const bytes = csv(Array.from({ length: 5000 }, (_, i) => [String(i), "x".repeat(20)]));
    const progress: number[] = [];
    const outcome = await scanFile(CSV, bufferSource(bytes, { chunkSize: 4096 }), { onProgress: (n) => progress.push(n) });
    expect(outcome.passed).toBe(true);
    expect(outcome.bytesRead).toBe(bytes.length + 4100);
    expect(progress.at(-1)).toBe(outcome.bytesRead);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });
});

describe("scanFile: storage errors", () => {
  it("propagates a read error unchanged so the caller can retry", async () => {
    const error = new Error("S3 unavailable");
    await expect(scanFile(PNG, failingSource(100, error))).rejects.toBe(error);
  });

  it("propagates a stream error unchanged", async () => {
    const error = new Error("connection reset");
    const source = bufferSource(csv([["a"], ["b"]]));
    const broken = { size: source.size, read: source.read, stream: () => failingSource(source.size, error).stream() };
    await expect(scanFile(CSV, broken)).rejects.toBe(error);
  });

  it("fails the check, rather than throwing, when a check itself breaks", async () => {
    // A source that lies about its size drives the parsers into states real storage never would.
    const source = { size: 10_000, read: async () => new Uint8Array([0x89]), stream: async function* () {} };
    const outcome = await scanFile(PNG, source);
    expect(outcome.passed).toBe(false);
  });
});
