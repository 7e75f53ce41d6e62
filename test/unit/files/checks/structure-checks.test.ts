import { describe, expect, it } from "vitest";
import { checkImageStructure } from "../../../../src/domain/files/checks/image-structure.js";
import { checkOfficeStructure } from "../../../../src/domain/files/checks/office-structure.js";
import { checkPdfStructure } from "../../../../src/domain/files/checks/pdf-structure.js";
import { findEndOfCentralDirectory } from "../../../../src/domain/files/checks/zip-directory.js";
import { bufferSource, cfb, concat, hostileFiles, latin1, pdf, png, text, webp, xls, xlsx, zip } from "../../../fixtures/files/index.js";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const XLS = "application/vnd.ms-excel";

function hasRawZipSignature(bytes: Uint8Array): boolean {
  const text = new TextDecoder("latin1").decode(bytes);
  return /PK(\x03\x04|\x01\x02|\x05\x06)/.test(text);
}

describe("checkPdfStructure", () => {
  it("accepts a minimal PDF and PDFs with data after a late %%EOF", async () => {
    await expect(checkPdfStructure(bufferSource(pdf()))).resolves.toMatchObject({ passed: true });
    await expect(checkPdfStructure(bufferSource(pdf({ trailing: text("\n\n") })))).resolves.toMatchObject({ passed: true });
  });

  it("accepts every PDF 1.x and 2.0 version header", async () => {
    for (const header of ["%PDF-1.0", "%PDF-1.4", "%PDF-2.0"]) {
      await expect(checkPdfStructure(bufferSource(pdf({ header }))), header).resolves.toMatchObject({ passed: true });
    }
  });

  it("finds a ZIP by its end record even with no raw signature in the head or the last 1 KB", async () => {
    const polyglot = hostileFiles.find((file) => file.name.startsWith("pdf+zip: ZIP past the head"))!.bytes;
    expect(hasRawZipSignature(polyglot.subarray(0, 4100))).toBe(false);
    expect(hasRawZipSignature(polyglot.subarray(polyglot.length - 1024))).toBe(false);
    await expect(checkPdfStructure(bufferSource(polyglot))).resolves.toMatchObject({ reason: "PDF_POLYGLOT" });
  });

  it("ignores an end-record signature that does not reach the end of the file", () => {
    const lookalike = concat(latin1("xx"), [0x50, 0x4b, 0x05, 0x06], new Uint8Array(16), [9, 0], latin1("short"));
    expect(findEndOfCentralDirectory(lookalike)).toBe(-1);
    expect(findEndOfCentralDirectory(zip([{ name: "a", data: "b" }], { comment: "hello" }))).toBeGreaterThan(0);
  });

  it("requires %%EOF within the last 1024 bytes", async () => {
    const late = pdf({ trailing: new Uint8Array(2000).fill(0x20) });
    await expect(checkPdfStructure(bufferSource(late))).resolves.toMatchObject({ reason: "PDF_MISSING_EOF" });
  });
});

describe("checkImageStructure", () => {
  it("distinguishes appended data from a truncated PNG", async () => {
    await expect(checkImageStructure("image/png", bufferSource(png(4, 4)))).resolves.toMatchObject({ passed: true });
    await expect(checkImageStructure("image/png", bufferSource(png(4, 4, { trailing: new Uint8Array(1) })))).resolves.toMatchObject({
      reason: "TRAILING_DATA",
      message: "1 bytes follow the IEND chunk",
    });
    await expect(checkImageStructure("image/png", bufferSource(png(4, 4).subarray(0, 5)))).resolves.toMatchObject({ reason: "IMAGE_TRUNCATED" });
  });

  it("reports data after IEND however long it is (the chunks are walked, not the tail searched)", async () => {
    const bytes = png(4, 4, { trailing: new Uint8Array(10_000) });
    await expect(checkImageStructure("image/png", bufferSource(bytes))).resolves.toMatchObject({
      passed: false,
      reason: "TRAILING_DATA",
      message: "10000 bytes follow the IEND chunk",
    });
  });

  it("checks the RIFF length of a WebP", async () => {
    await expect(checkImageStructure("image/webp", bufferSource(webp(3, 3, { format: "VP8X" })))).resolves.toMatchObject({ passed: true });
    await expect(checkImageStructure("image/webp", bufferSource(webp(3, 3, { trailing: new Uint8Array(2) })))).resolves.toMatchObject({
      reason: "TRAILING_DATA",
    });
  });
});

describe("checkOfficeStructure", () => {
  it("accepts minimal XLS and XLSX files, including ZIP64", async () => {
    await expect(checkOfficeStructure(XLS, bufferSource(xls()))).resolves.toMatchObject({ passed: true });
    await expect(checkOfficeStructure(XLSX, bufferSource(xlsx()))).resolves.toMatchObject({ passed: true });
    await expect(checkOfficeStructure(XLSX, bufferSource(xlsx({ zip64: true })))).resolves.toMatchObject({ passed: true });
  });

  it("accepts the BIFF5 'Book' stream and finds a workbook among several root entries", async () => {
    await expect(checkOfficeStructure(XLS, bufferSource(cfb([{ name: "Book" }])))).resolves.toMatchObject({ passed: true });
    const several = cfb([{ name: "\u0005SummaryInformation" }, { name: "CompObj" }, { name: "Workbook" }]);
    await expect(checkOfficeStructure(XLS, bufferSource(several))).resolves.toMatchObject({ passed: true });
  });

  it("accepts an XLSX with a ZIP comment", async () => {
    const withComment = zip(
      [
        { name: "[Content_Types].xml", data: "<Types/>" },
        { name: "xl/workbook.xml", data: "<workbook/>" },
      ],
      { comment: "made by a test" },
    );
    await expect(checkOfficeStructure(XLSX, bufferSource(withComment))).resolves.toMatchObject({ passed: true });
  });

  it("refuses a directory tree that loops", async () => {
    const bytes = xls();
    // Make entry 1 ("Workbook") its own right sibling.
    bytes.set([1, 0, 0, 0], 1024 + 128 + 0x48);
    await expect(checkOfficeStructure(XLS, bufferSource(bytes))).resolves.toMatchObject({ reason: "OFFICE_CORRUPT" });
  });

  it("refuses a directory sector chain that loops", async () => {
    const bytes = xls();
    // FAT entry for the directory sector (1) points back to itself.
    bytes.set([1, 0, 0, 0], 512 + 4);
    await expect(checkOfficeStructure(XLS, bufferSource(bytes))).resolves.toMatchObject({ reason: "OFFICE_CORRUPT" });
  });

  it("refuses an entry count that disagrees with the central directory", async () => {
    const bytes = xlsx();
    const end = bytes.length - 22;
    bytes.set([9, 0, 9, 0], end + 8);
    await expect(checkOfficeStructure(XLSX, bufferSource(bytes))).resolves.toMatchObject({ reason: "OFFICE_CORRUPT" });
  });
});

describe("checkOfficeStructure: read budget", () => {
  it("detects a looping directory chain on its second visit, not after the cap", async () => {
    const bytes = xls();
    bytes.set([1, 0, 0, 0], 512 + 4);
    const source = bufferSource(bytes);
    await checkOfficeStructure(XLS, source);
    expect(source.bytesServed).toBeLessThan(2048);
  });
});
