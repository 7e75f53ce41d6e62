import { describe, expect, it } from "vitest";
import { checkOfficeStructure } from "../../../../src/domain/files/checks/office-structure.js";
import { scanFile } from "../../../../src/domain/files/checks/scanner.js";
import { biffWorkbook, bufferSource, cfb, record, SHEET_TYPES, xls } from "../../../fixtures/files/index.js";

const XLS = "application/vnd.ms-excel";

function check(bytes: Uint8Array) {
  return checkOfficeStructure(XLS, bufferSource(bytes));
}

/** Records the globals may hold before the sheets (fonts, formats, strings): pushes the sheets past the mini stream. */
const FILLER = new Uint8Array(Array.from({ length: 40 }, () => [...record(0x0031, new Uint8Array(200))]).flat());

describe("office_structure reads the XLS Workbook stream's sheet declarations", () => {
  it("refuses an Excel 4.0 macro sheet declared by a BOUNDSHEET record", async () => {
    const file = xls({ workbook: biffWorkbook({ sheets: [{ name: "Sheet1" }, { name: "Macro1", type: SHEET_TYPES.macroSheet }] }) });
    const outcome = await scanFile(XLS, bufferSource(file));
    expect(outcome.passed).toBe(false);
    expect(outcome.checks).toContainEqual(expect.objectContaining({ name: "office_structure", passed: false, reason: "OFFICE_MACROS" }));
  });

  it("refuses a VBA module sheet", async () => {
    const file = xls({ workbook: biffWorkbook({ sheets: [{ name: "Module1", type: SHEET_TYPES.vbModule }] }) });
    await expect(check(file)).resolves.toMatchObject({ passed: false, reason: "OFFICE_MACROS" });
  });

  it("refuses a macro sheet declared past the mini stream, in regular sectors", async () => {
    const workbook = biffWorkbook({ before: FILLER, sheets: [{ name: "Sheet1" }, { name: "Auto_Open", type: SHEET_TYPES.macroSheet }] });
    expect(workbook.length).toBeGreaterThan(4096);
    await expect(check(xls({ workbook }))).resolves.toMatchObject({ passed: false, reason: "OFFICE_MACROS" });
  });

  it("refuses a macro sheet in a BIFF5 'Book' stream", async () => {
    const file = cfb([{ name: "Book", data: biffWorkbook({ sheets: [{ name: "Macro1", type: SHEET_TYPES.macroSheet }] }) }]);
    await expect(check(file)).resolves.toMatchObject({ passed: false, reason: "OFFICE_MACROS" });
  });

  it("refuses an encrypted workbook, whose sheet declarations cannot be read", async () => {
    const file = xls({ workbook: biffWorkbook({ before: record(0x002f, new Uint8Array(54)) }) });
    await expect(check(file)).resolves.toMatchObject({ passed: false, reason: "OFFICE_ENCRYPTED" });
  });

  it("refuses a Workbook stream that is not BIFF", async () => {
    const file = xls({ workbook: new Uint8Array(100).fill(0x41) });
    await expect(check(file)).resolves.toMatchObject({ passed: false, reason: "OFFICE_CORRUPT" });
  });

  it("passes workbooks of worksheets and charts, small and large", async () => {
    const sheets = [{ name: "Sheet1" }, { name: "Chart1", type: SHEET_TYPES.chart }, { name: "Sheet2" }];
    await expect(check(xls({ workbook: biffWorkbook({ sheets }) }))).resolves.toEqual({ name: "office_structure", passed: true });
    await expect(check(xls({ workbook: biffWorkbook({ sheets, before: FILLER }) }))).resolves.toEqual({ name: "office_structure", passed: true });
  });
});
