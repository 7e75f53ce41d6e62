import { describe, expect, it } from "vitest";
import { STRICT_CONTENT_POLICY } from "../../../../src/domain/files/checks/content-policy.js";
import { checkCsv } from "../../../../src/domain/files/checks/csv-structure.js";
import { checkOfficeStructure } from "../../../../src/domain/files/checks/office-structure.js";
import { scanFile } from "../../../../src/domain/files/checks/scanner.js";
import { classRules, objectClassNames } from "../../../../src/domain/files/object-classes.js";
import { bufferSource, concat, jpeg, latin1, pdf, text, worstCaseCsv, worstCaseXlsx, xlsx } from "../../../fixtures/files/index.js";

const CSV = "text/csv";
const PDF = "application/pdf";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

async function formulaCells(body: string) {
  const [, formula] = await checkCsv(bufferSource(text(body), { chunkSize: 3 }), "reject");
  return formula;
}

describe("csv_formula_cells", () => {
  it.each([
    ["leading =", "a,b\n=1+1,2\n"],
    ["leading @", "a,b\n@SUM(A1),2\n"],
    ["leading + with letters", "a,b\n+cmd|' /C calc'!A0,2\n"],
    ["a signed number followed by a formula", "a,b\n-2+3+cmd|' /C calc'!A0,2\n"],
    ["after a leading tab inside quotes", 'a,b\n"\t=1+1",2\n'],
    ["after a leading CR LF inside quotes", 'a,b\n"\r\n=1+1",2\n'],
    ["after an escaped quote", 'a,b\n"""=1+1",2\n'],
    ["after leading spaces", "a,b\n   =1,2\n"],
    ["in the header", "=HYPERLINK(\"http://x\"),b\n1,2\n"],
  ])("finds a formula %s", async (_label, body) => {
    await expect(formulaCells(body)).resolves.toMatchObject({ name: "csv_formula_cells", passed: false, reason: "CSV_FORMULA_CELLS" });
  });

  it.each([
    ["negative amounts", "a,b\n-12.50,-3\n"],
    ["phone numbers", "a,b\n+44 20 7946 0958,+1\n"],
    ["a lone dash", "a,b\n-,x\n"],
    ["equals inside a field", "a,b\nx=1,y@z\n"],
  ])("does not count %s", async (_label, body) => {
    await expect(formulaCells(body)).resolves.toEqual({ name: "csv_formula_cells", passed: true });
  });

  it("counts every formula cell and names the first line", async () => {
    const result = await formulaCells("a,b\nx,y\n=1,@2\n=3,4\n");
    expect(result.message).toBe("3 cell(s) start like a spreadsheet formula (=, +, -, @), the first on line 3");
  });

  it("keeps the file READY but reports the finding when the class flags it (IMPORT_FILE)", async () => {
    const bytes = text("name,amount\nx,=cmd|' /C calc'!A0\n");
    const flagged = await scanFile(CSV, bufferSource(bytes), { contentPolicy: classRules("IMPORT_FILE").contentPolicy });
    expect(flagged.passed).toBe(true);
    expect(flagged.checks.at(-1)).toMatchObject({ name: "csv_formula_cells", passed: true, reason: "CSV_FORMULA_CELLS" });
    const refused = await scanFile(CSV, bufferSource(bytes), { contentPolicy: classRules("STATEMENT").contentPolicy });
    expect(refused.passed).toBe(false);
    expect(refused.checks.at(-1)).toMatchObject({ name: "csv_formula_cells", passed: false, reason: "CSV_FORMULA_CELLS" });
  });
});

describe("pdf_active_content", () => {
  const embedded = pdf({ embedded: latin1("<< /Type /EmbeddedFile >>") });

  it("reports an embedded file for REPORT and refuses it for the other PDF classes", async () => {
    const report = await scanFile(PDF, bufferSource(embedded), { contentPolicy: classRules("REPORT").contentPolicy });
    expect(report.passed).toBe(true);
    expect(report.checks.find((check) => check.name === "pdf_active_content")).toMatchObject({ passed: true, reason: "PDF_EMBEDDED_FILE" });
    for (const name of ["KYC_IDENTITY_DOCUMENT", "LOAN_DOCUMENT", "STATEMENT", "GENERAL_DOCUMENT"]) {
      const outcome = await scanFile(PDF, bufferSource(embedded), { contentPolicy: classRules(name).contentPolicy });
      expect(outcome.passed, name).toBe(false);
    }
  });

  it("refuses JavaScript and launch actions whatever the class", async () => {
    for (const body of ["/JS (x)", "/JavaScript", "/Launch", "/#4A#53 (x)"]) {
      const outcome = await scanFile(PDF, bufferSource(pdf({ embedded: latin1(`<< /S ${body} >>`) })), { contentPolicy: classRules("REPORT").contentPolicy });
      expect(outcome.passed, body).toBe(false);
    }
  });

  it("finds a name split across stream chunks", async () => {
    const bytes = pdf({ embedded: latin1("<< /S /JavaScript >>") });
    const outcome = await scanFile(PDF, bufferSource(bytes, { chunkSize: 7 }));
    expect(outcome.checks.find((check) => check.name === "pdf_active_content")).toMatchObject({ reason: "PDF_JAVASCRIPT" });
  });

  it("does not mistake longer names for the ones it looks for", async () => {
    const outcome = await scanFile(PDF, bufferSource(pdf({ embedded: latin1("<< /JSX 1 /Launcher 2 /EmbeddedFileX 3 >>") })));
    expect(outcome.passed).toBe(true);
  });
});

describe("class content policies", () => {
  it("flag only what docs and class rules say, and refuse everything else", () => {
    const relaxed = objectClassNames.filter((name) => classRules(name).contentPolicy !== STRICT_CONTENT_POLICY);
    expect(relaxed.sort()).toEqual(["IMPORT_FILE", "REPORT"]);
    expect(classRules("IMPORT_FILE").contentPolicy).toEqual({ csvFormulaCells: "flag", pdfEmbeddedFiles: "reject" });
    expect(classRules("REPORT").contentPolicy).toEqual({ csvFormulaCells: "reject", pdfEmbeddedFiles: "flag" });
  });
});

describe("jpeg end", () => {
  it("accepts a JPEG whose EXIF block holds a thumbnail with its own EOI", async () => {
    const thumbnail = concat(latin1("Exif\0\0"), jpeg(2, 2));
    const withThumbnail = concat(jpeg(4, 4).subarray(0, 2), [0xff, 0xe1, (thumbnail.length + 2) >> 8, (thumbnail.length + 2) & 0xff], thumbnail, jpeg(4, 4).subarray(2));
    const outcome = await scanFile("image/jpeg", bufferSource(withThumbnail));
    expect(outcome.checks.filter((check) => !check.passed)).toEqual([]);
  });
});

describe("xlsx declared expansion", () => {
  it("bounds the ratio and the total of declared uncompressed sizes, as configured", async () => {
    const bytes = xlsx({ extraEntries: [{ name: "xl/worksheets/sheet1.xml", data: "<worksheet/>", declaredSize: 2_000_000 }] });
    await expect(checkOfficeStructure(XLSX, bufferSource(bytes))).resolves.toMatchObject({ reason: "OFFICE_EXPANSION_TOO_LARGE" });
    await expect(checkOfficeStructure(XLSX, bufferSource(bytes), { maxExpansionRatio: 10_000, maxUncompressedBytes: 4_000_000 })).resolves.toMatchObject({ passed: true });
    await expect(checkOfficeStructure(XLSX, bufferSource(bytes), { maxExpansionRatio: 10_000, maxUncompressedBytes: 1_000_000 })).resolves.toMatchObject({
      reason: "OFFICE_EXPANSION_TOO_LARGE",
    });
  });
});

describe("scan CPU per MB on worst-case inputs", () => {
  /** CPU milliseconds per MB of input, from the process's own counters. */
  async function cpuMsPerMb(contentType: string, bytes: Uint8Array): Promise<number> {
    const before = process.cpuUsage();
    const outcome = await scanFile(contentType, bufferSource(bytes), { contentPolicy: classRules("IMPORT_FILE").contentPolicy });
    const used = process.cpuUsage(before);
    expect(outcome.checks.filter((check) => !check.passed)).toEqual([]);
    return (used.user + used.system) / 1000 / (bytes.length / (1024 * 1024));
  }

  it("stays linear on the worst-case CSV (about 8 MB)", async () => {
    expect(await cpuMsPerMb(CSV, worstCaseCsv(8 * 1024 * 1024))).toBeLessThan(1000);
  });

  it("stays linear on the worst-case XLSX (20,000 long part names)", async () => {
    const bytes = worstCaseXlsx(20_000);
    expect(bytes.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(await cpuMsPerMb(XLSX, bytes)).toBeLessThan(1000);
  });
});
