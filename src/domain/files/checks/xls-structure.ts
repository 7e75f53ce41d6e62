import { BiffGlobalsReader } from "./biff-globals.js";
import type { ByteSource } from "./byte-source.js";
import { CFB_STORAGE, CFB_STREAM, readCfbContainer } from "./cfb-directory.js";
import { readCfbStream } from "./cfb-stream.js";
import { failed, passed, type CheckResult } from "./check-result.js";

const NAME = "office_structure";

/** Workbook stream names: "Workbook" for BIFF8 (Excel 97+), "Book" for BIFF5. */
const WORKBOOK_STREAMS = ["workbook", "book"];

/**
 * Storages that carry code or embedded objects. VBA lives in `_VBA_PROJECT_CUR` (Excel),
 * `Macros` and `_VBA_PROJECT` (other Office writers); embedded OLE objects in `MBD...` storages
 * and `ObjectPool`.
 */
const CODE_STORAGES = new Set(["_vba_project_cur", "macros", "_vba_project"]);
const OBJECT_STORAGES = (name: string) => name === "objectpool" || name.startsWith("mbd");

/**
 * XLS policy: allowed only without the storages above, and without Excel 4.0 macro sheets or VBA
 * module sheets, which are declared in the workbook stream's globals (BOUNDSHEET records) rather
 * than as storages. An encrypted workbook is refused: its sheet declarations cannot be read.
 * DDE formulas inside the sheets are not parsed; XLSX is the format to ask of importers.
 */
export async function checkXls(source: ByteSource): Promise<CheckResult> {
  const container = await readCfbContainer(source);
  if (!container.ok) return failed(NAME, "OFFICE_CORRUPT", container.why);
  const entries = container.value.entries.map((entry) => ({ ...entry, key: entry.name.toLowerCase() }));
  if (entries.some((entry) => entry.type === CFB_STORAGE && CODE_STORAGES.has(entry.key))) {
    return failed(NAME, "OFFICE_MACROS", "the workbook contains a VBA project");
  }
  if (entries.some((entry) => entry.type === CFB_STORAGE && OBJECT_STORAGES(entry.key))) {
    return failed(NAME, "OFFICE_EMBEDDED_OBJECT", "the workbook contains embedded OLE objects");
  }
  // Excel opens "Workbook" when both are present, an older reader "Book": both are read.
  const workbooks = entries.filter((entry) => entry.type === CFB_STREAM && WORKBOOK_STREAMS.includes(entry.key));
  if (workbooks.length === 0) return failed(NAME, "OFFICE_NOT_SPREADSHEET", "the OLE2 container has no Workbook stream");
  for (const workbook of workbooks) {
    const globals = new BiffGlobalsReader();
    const read = await readCfbStream(source, container.value, workbook, (bytes) => globals.push(bytes));
    if (!read.ok) return failed(NAME, "OFFICE_CORRUPT", read.why);
    const verdict = globals.finish();
    if (verdict.kind === "macros") return failed(NAME, "OFFICE_MACROS", verdict.message);
    if (verdict.kind === "encrypted") return failed(NAME, "OFFICE_ENCRYPTED", "the workbook is encrypted, so its sheets cannot be checked");
    if (verdict.kind === "corrupt") return failed(NAME, "OFFICE_CORRUPT", `${workbook.name}: ${verdict.message}`);
  }
  return passed(NAME);
}
