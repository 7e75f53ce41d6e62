import type { ByteSource } from "./byte-source.js";
import { failed, passed, type CheckResult } from "./check-result.js";
import { CONTENT_TYPES, type ContentType } from "./content-types.js";
import { CFB_STORAGE, CFB_STREAM, readCfbRootEntries } from "./cfb-directory.js";
import { locateCentralDirectory, readEntryNames } from "./zip-directory.js";

const NAME = "office_structure";

/** Workbook stream names: "Workbook" for BIFF8 (Excel 97+), "Book" for BIFF5. */
const WORKBOOK_STREAMS = new Set(["workbook", "book"]);

/** The storage Excel keeps VBA macros in. Import files never need macros. */
const VBA_STORAGE = "_vba_project_cur";

/**
 * Proves that an office container is a spreadsheet: an OLE2 file with a workbook stream (XLS), or
 * a ZIP package with OOXML content types and a part under `xl/` (XLSX). A Word document or a
 * plain ZIP has the same outer signature and is refused here. Macro-bearing files are refused too.
 */
export async function checkOfficeStructure(type: ContentType, source: ByteSource): Promise<CheckResult> {
  if (type === CONTENT_TYPES.xls) return checkXls(source);
  if (type === CONTENT_TYPES.xlsx) return checkXlsx(source);
  return failed(NAME, "OFFICE_CORRUPT", `${type} is not an office spreadsheet type`);
}

async function checkXls(source: ByteSource): Promise<CheckResult> {
  const entries = await readCfbRootEntries(source);
  if (!entries.ok) return failed(NAME, "OFFICE_CORRUPT", entries.why);
  const names = entries.value.map((entry) => ({ ...entry, name: entry.name.toLowerCase() }));
  if (names.some((entry) => entry.type === CFB_STORAGE && entry.name === VBA_STORAGE)) {
    return failed(NAME, "OFFICE_MACROS", "the workbook contains a VBA project");
  }
  if (!names.some((entry) => entry.type === CFB_STREAM && WORKBOOK_STREAMS.has(entry.name))) {
    return failed(NAME, "OFFICE_NOT_SPREADSHEET", "the OLE2 container has no Workbook stream");
  }
  return passed(NAME);
}

async function checkXlsx(source: ByteSource): Promise<CheckResult> {
  const location = await locateCentralDirectory(source);
  if (!location.ok) return failed(NAME, "OFFICE_CORRUPT", location.why);
  const { offset, size, entries } = location.value;
  const names = readEntryNames(await source.read(offset, size), entries);
  if (!names.ok) return failed(NAME, "OFFICE_CORRUPT", names.why);
  // OPC part names compare case-insensitively.
  const lower = names.value.map((name) => name.toLowerCase());
  if (!lower.includes("[content_types].xml")) {
    return failed(NAME, "OFFICE_NOT_SPREADSHEET", "the ZIP package has no [Content_Types].xml part");
  }
  if (!lower.some((name) => name.startsWith("xl/"))) {
    return failed(NAME, "OFFICE_NOT_SPREADSHEET", "the package has no spreadsheet part under xl/");
  }
  if (lower.some((name) => name.endsWith("vbaproject.bin"))) {
    return failed(NAME, "OFFICE_MACROS", "the package contains a VBA project");
  }
  return passed(NAME);
}
