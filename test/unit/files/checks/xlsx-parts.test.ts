import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { checkOfficeStructure } from "../../../../src/domain/files/checks/office-structure.js";
import { scanFile } from "../../../../src/domain/files/checks/scanner.js";
import { bufferSource, text, xlsx, zip } from "../../../fixtures/files/index.js";
import { contentTypes, SPREADSHEET_MAIN } from "../../../fixtures/files/zip.js";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const MIB = 1024 * 1024;
const RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

function check(bytes: Uint8Array) {
  return checkOfficeStructure(XLSX, bufferSource(bytes));
}

function relationships(...items: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.join("")}</Relationships>`;
}

/**
 * `megabytes` MiB of zeros, raw-deflated at about 1,030:1: 8 compressed MiB repeated (each copy
 * ends on a sync flush, so copies chain into one valid stream) and a final empty block.
 */
function zeroBomb(megabytes: number): Uint8Array {
  const segment = zlib.deflateRawSync(Buffer.alloc(8 * MIB), { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const final = zlib.deflateRawSync(Buffer.alloc(0));
  return new Uint8Array(Buffer.concat([...Array.from({ length: megabytes / 8 }, () => segment), final]));
}

describe("office_structure reads XLSX content types and relationships as XML", () => {
  it("refuses a macro sheet whose content type is written with a character reference (&#109;acrosheet)", async () => {
    const file = xlsx({
      extraEntries: [{ name: "xl/worksheets/sheet2.xml", data: "<xm:macrosheet/>" }],
      contentTypeOverrides: [{ part: "xl/worksheets/sheet2.xml", type: "application/vnd.ms-excel.&#109;acrosheet+xml" }],
    });
    const outcome = await scanFile(XLSX, bufferSource(file));
    expect(outcome.passed).toBe(false);
    expect(outcome.checks).toContainEqual(expect.objectContaining({ name: "office_structure", passed: false, reason: "OFFICE_MACROS" }));
  });

  it("refuses a VBA project declared in a UTF-16 [Content_Types].xml", async () => {
    const xml = contentTypes("xl/workbook.xml", SPREADSHEET_MAIN, [{ part: "xl/data.dat", type: "application/vnd.ms-office.vbaProject" }]).replace('encoding="UTF-8"', 'encoding="UTF-16"');
    const utf16 = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, "utf16le")]));
    const file = xlsx({ contentTypesXml: utf16, extraEntries: [{ name: "xl/data.dat", data: "x" }] });
    await expect(check(file)).resolves.toMatchObject({ passed: false, reason: "OFFICE_MACROS" });
  });

  it("refuses a macro sheet related from the workbook under an ordinary part name", async () => {
    const rels = relationships(`<Relationship Id="rId9" Type="${RELS}/xl&#77;acrosheet" Target="worksheets/sheet9.xml"/>`);
    const file = xlsx({ deflate: true, extraEntries: [{ name: "xl/_rels/workbook.xml.rels", data: rels, deflate: true }, { name: "xl/worksheets/sheet9.xml", data: "<worksheet/>" }] });
    await expect(check(file)).resolves.toMatchObject({ passed: false, reason: "OFFICE_MACROS" });
  });

  it("refuses a relationship other than a hyperlink that points outside the package", async () => {
    const rels = relationships(`<Relationship Id="rId1" Type="${RELS}/image" Target="http://attacker.example/pixel.png" TargetMode="External"/>`);
    const file = xlsx({ extraEntries: [{ name: "xl/drawings/_rels/drawing1.xml.rels", data: rels }] });
    await expect(check(file)).resolves.toMatchObject({ passed: false, reason: "OFFICE_EXTERNAL_LINKS" });
  });

  it("refuses a macro sheet folder written with a percent-escape (xl/%6Dacrosheets/)", async () => {
    const file = xlsx({ extraEntries: [{ name: "xl/%6Dacrosheets/sheet1.xml", data: "<xm:macrosheet/>" }] });
    await expect(check(file)).resolves.toMatchObject({ passed: false, reason: "OFFICE_MACROS" });
  });

  it("refuses a [Content_Types].xml with a DTD (entities a reader might expand)", async () => {
    const file = xlsx({ contentTypesXml: '<?xml version="1.0"?><!DOCTYPE Types [<!ENTITY m "macrosheet">]><Types/>' });
    await expect(check(file)).resolves.toMatchObject({ passed: false, reason: "OFFICE_CORRUPT" });
  });

  it("passes a clean deflated workbook whose sheet has an external hyperlink", async () => {
    const sheetRels = relationships(`<Relationship Id="rId1" Type="${RELS}/hyperlink" Target="https://example.com/" TargetMode="External"/>`);
    const workbookRels = relationships(`<Relationship Id="rId1" Type="${RELS}/worksheet" Target="worksheets/sheet1.xml"/>`);
    const file = xlsx({
      deflate: true,
      extraEntries: [
        { name: "xl/_rels/workbook.xml.rels", data: workbookRels, deflate: true },
        { name: "xl/worksheets/sheet1.xml", data: "<worksheet>" + "<row/>".repeat(10_000) + "</worksheet>", deflate: true },
        { name: "xl/worksheets/_rels/sheet1.xml.rels", data: sheetRels, deflate: true },
      ],
    });
    await expect(scanFile(XLSX, bufferSource(file, { chunkSize: 7 }))).resolves.toMatchObject({ passed: true });
  });
});

describe("office_structure bounds XLSX inflation by the bytes produced", () => {
  it("refuses a sheet that inflates to 200 MiB from 199 KiB while declaring 1 KiB, stopping at the cap", async () => {
    const bomb = zeroBomb(200);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const file = xlsx({ extraEntries: [{ name: "xl/worksheets/sheet1.xml", data: "", deflated: bomb, declaredSize: 1024 }] });
    const source = bufferSource(file, { chunkSize: 4096 });
    const outcome = await scanFile(XLSX, source);
    expect(outcome.checks).toContainEqual(expect.objectContaining({ name: "office_structure", passed: false, reason: "OFFICE_EXPANSION_TOO_LARGE" }));
    // The scan stopped inside the bomb: most of its compressed bytes were never even read.
    expect(source.bytesServed).toBeLessThan(file.length * 0.75);
  });

  it("refuses a stored part whose data is longer than it declares", async () => {
    const file = zip([
      { name: "[Content_Types].xml", data: "<Types/>" },
      { name: "xl/worksheets/sheet1.xml", data: text("<worksheet/>".repeat(100)), declaredSize: 12 },
    ]);
    await expect(check(file)).resolves.toMatchObject({ passed: false, reason: "OFFICE_EXPANSION_TOO_LARGE" });
  });

  it("refuses a local entry the directory does not list (what a streaming reader would find)", async () => {
    const file = xlsx({ extraEntries: [{ name: "xl/vbaProject.bin", data: "hidden", unlisted: true }, { name: "xl/styles.xml", data: "<styleSheet/>" }] });
    await expect(check(file)).resolves.toMatchObject({ passed: false, reason: "OFFICE_CORRUPT" });
  });

  it("refuses relationships larger than the XML it will parse", async () => {
    const item = `<Relationship Id="rId1" Type="${RELS}/worksheet" Target="worksheets/sheet1.xml"/>`;
    const rels = relationships(item.repeat(Math.ceil((16 * MIB) / item.length)));
    const file = xlsx({ deflate: true, extraEntries: [{ name: "xl/_rels/workbook.xml.rels", data: rels, deflate: true }, { name: "xl/media/pad.png", data: new Uint8Array(200 * 1024) }] });
    await expect(check(file)).resolves.toMatchObject({ passed: false, reason: "OFFICE_CORRUPT" });
  });
});
