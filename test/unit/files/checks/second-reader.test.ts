import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { CONTENT_TYPES, type ContentType } from "../../../../src/domain/files/checks/content-types.js";
import { checkCsv } from "../../../../src/domain/files/checks/csv-structure.js";
import { checkImageStructure } from "../../../../src/domain/files/checks/image-structure.js";
import { scanFile } from "../../../../src/domain/files/checks/scanner.js";
import { classRules } from "../../../../src/domain/files/object-classes.js";
import {
  bufferSource,
  concat,
  jpeg,
  jpegWithExifAndXmp,
  jpegWithHtmlBeforeEoi,
  latin1,
  png,
  pngWithXmp,
  secondReaderFiles,
  text,
} from "../../../fixtures/files/index.js";

const { jpeg: JPEG, png: PNG } = CONTENT_TYPES;
const COM = 0xfe;

/** The image_structure verdict, read through a source that streams in small chunks. */
function structure(type: ContentType, bytes: Uint8Array, chunkSize = 4096) {
  return checkImageStructure(type, bufferSource(bytes, { chunkSize }));
}

describe("issue 22's files are refused by the scan", () => {
  it.each(secondReaderFiles.map((file) => [file.name, file] as const))("%s", async (_name, file) => {
    const policy = file.objectClass ? classRules(file.objectClass).contentPolicy : undefined;
    const outcome = await scanFile(file.contentType, bufferSource(file.bytes), { contentPolicy: policy });
    expect(outcome.passed).toBe(false);
    expect(outcome.checks.find((check) => !check.passed)).toMatchObject({ name: file.expectedCheck, reason: file.expectedReason });
  });
});

describe("JPEG: read segment by segment to the EOI", () => {
  it("finds HTML in the entropy-coded data however far it is from the end", async () => {
    await expect(structure(JPEG, jpegWithHtmlBeforeEoi())).resolves.toMatchObject({
      reason: "IMAGE_ACTIVE_TEXT",
      message: "the image data contains a <html> element",
    });
  });

  it("names the metadata segment that holds markup", async () => {
    const com = jpeg(4, 4, { segments: [{ marker: COM, body: text('<iframe src="https://evil.example">') }] });
    await expect(structure(JPEG, com, 7)).resolves.toMatchObject({ reason: "IMAGE_ACTIVE_TEXT", message: "the comment (COM) segment contains a <iframe> element" });
    const app1 = jpeg(4, 4, { segments: [{ marker: 0xe1, body: concat(latin1("http://ns.adobe.com/xap/1.0/\0"), text("<x:xmpmeta><svg onload=alert(1)>")) }] });
    await expect(structure(JPEG, app1, 7)).resolves.toMatchObject({ reason: "IMAGE_ACTIVE_TEXT", message: "the APP1 segment contains a <svg> element" });
  });

  it("accepts a camera-like JPEG with EXIF, XMP and a comment, and scan data with stuffing and restarts", async () => {
    await expect(structure(JPEG, jpegWithExifAndXmp(), 5)).resolves.toEqual({ name: "image_structure", passed: true });
    const stuffed = jpeg(4, 4, { scan: Uint8Array.of(0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff, 0xff, 0xd1, 0x78) });
    await expect(structure(JPEG, stuffed, 3)).resolves.toEqual({ name: "image_structure", passed: true });
  });

  it("refuses anything after the first EOI, even an EOI-terminated second image", async () => {
    await expect(structure(JPEG, concat(jpeg(4, 4), jpeg(4, 4)))).resolves.toMatchObject({ reason: "TRAILING_DATA" });
    await expect(structure(JPEG, concat(jpeg(4, 4), new Uint8Array(1)))).resolves.toMatchObject({ reason: "TRAILING_DATA" });
  });

  it("refuses bytes between segments that are not a marker, and a missing EOI", async () => {
    const image = jpeg(4, 4);
    const garbage = concat(image.subarray(0, 20), latin1("junk"), image.subarray(20));
    await expect(structure(JPEG, garbage)).resolves.toMatchObject({ reason: "IMAGE_MALFORMED" });
    await expect(structure(JPEG, image.subarray(0, image.length - 2))).resolves.toMatchObject({ reason: "IMAGE_TRUNCATED" });
  });
});

describe("PNG: every chunk that can hold text is read with the markup parser", () => {
  const withChunk = (type: string, data: Uint8Array) => png(4, 4, { extraChunks: [{ type, data, afterPixels: true }] });

  it.each([
    ["tEXt", "tEXt", latin1("Comment\0<img src=x onerror=alert(1)>"), "an onerror event handler"],
    ["uncompressed iTXt", "iTXt", latin1("Description\0\0\0en\0\0<IMG SRC=x OnError=alert(1)>"), "an onerror event handler"],
    ["a private chunk", "prVt", text("<script>alert(1)</script>"), "a <script> element"],
    ["an unknown critical chunk", "XYZW", text("&#x6A;avascript:alert(1)"), "a javascript: URL"],
    ["eXIf", "eXIf", latin1("MM\0*<svg/onload=alert(1)>"), "a <svg> element"],
  ])("refuses markup in %s", async (_label, type, data, finding) => {
    const result = await structure(PNG, withChunk(type, data), 5);
    expect(result).toMatchObject({ reason: "IMAGE_ACTIVE_TEXT" });
    expect(result.message).toContain(finding);
  });

  it.each([
    ["zTXt", "zTXt", latin1("Comment\0\0")],
    ["compressed iTXt", "iTXt", latin1("Comment\0\x01\0\0\0")],
  ])("inflates %s and refuses the markup it holds", async (_label, type, header) => {
    const result = await structure(PNG, withChunk(type, concat(header, zlib.deflateSync(Buffer.from("<body/onpageshow=alert(1)>")))));
    expect(result).toMatchObject({ reason: "IMAGE_ACTIVE_TEXT", message: `the text of a ${type} chunk contains a <body> element` });
  });

  it("accepts XMP in iTXt, compressed or not, and a plain tEXt comment", async () => {
    await expect(structure(PNG, pngWithXmp(false), 5)).resolves.toEqual({ name: "image_structure", passed: true });
    await expect(structure(PNG, pngWithXmp(true), 5)).resolves.toEqual({ name: "image_structure", passed: true });
  });
});

describe("CSV: formula cells under every delimiter a spreadsheet may choose", () => {
  async function formulaCells(body: string) {
    const [structure, formula] = await checkCsv(bufferSource(text(body), { chunkSize: 3 }), "reject");
    expect(structure).toMatchObject({ passed: true });
    return formula;
  }

  it.each([
    ["after a comma in a ;-file", "date;amount\r\n2026-01-01;x,=cmd|' /C calc'!A0", ","],
    ["after a ; in a ,-file", "a,b\nx;=1+1,2\n", ";"],
    ["after a tab in a |-file", "a|b\nx\t@SUM(A1)|2\n", "\t"],
    ["after a | in a tab-file", "a\tb\nx|+cmd|' /C calc'!A0\t2\n", "|"],
    ["after a ; and spaces in a ,-file", "a,b\nx;   =1+1,2\n", ";"],
  ])("finds a formula %s", async (_label, body, delimiter) => {
    const result = await formulaCells(body);
    expect(result).toMatchObject({ passed: false, reason: "CSV_FORMULA_CELLS" });
    expect(result.message).toContain(`when split on ${JSON.stringify(delimiter)}`);
  });

  it.each([
    ["negative amounts with decimal commas in a ;-file", "a;b\n-12,50;-3\n"],
    ["negative amounts in a ,-file, read on ;", "a,b\n-12.50,-3\n-1, -2\n"],
    ["signed numbers in a tab-file", "a\tb\n-1\t+2\n"],
    ["a quoted ; then = (one field to the reader that honours the quotes)", 'a,b\n"x;=1",2\n'],
    ["a lone dash before another delimiter", "a;b\n-,x;y\n"],
  ])("does not count %s", async (_label, body) => {
    await expect(formulaCells(body)).resolves.toEqual({ name: "csv_formula_cells", passed: true });
  });
});
