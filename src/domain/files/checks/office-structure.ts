import type { ByteSource } from "./byte-source.js";
import { failed, type CheckResult } from "./check-result.js";
import { CONTENT_TYPES, type ContentType } from "./content-types.js";
import { DEFAULT_OFFICE_LIMITS } from "./office-limits.js";
import { checkXls } from "./xls-structure.js";
import { checkXlsx } from "./xlsx-structure.js";

/**
 * Proves that an office container is a spreadsheet: an OLE2 file with a workbook stream (XLS), or
 * a ZIP package with OOXML content types and a part under `xl/` (XLSX). A Word document or a
 * plain ZIP has the same outer signature and is refused here. Macro-bearing files are refused too.
 */
export async function checkOfficeStructure(type: ContentType, source: ByteSource, limits = DEFAULT_OFFICE_LIMITS): Promise<CheckResult> {
  if (type === CONTENT_TYPES.xls) return checkXls(source);
  if (type === CONTENT_TYPES.xlsx) return checkXlsx(source, limits);
  return failed("office_structure", "OFFICE_CORRUPT", `${type} is not an office spreadsheet type`);
}
