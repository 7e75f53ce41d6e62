import type { ByteSource } from "./byte-source.js";
import { hasBytesAt, u16le } from "./bytes.js";
import { failed, passed, type CheckResult } from "./check-result.js";
import { CONTENT_TYPES, type ContentType } from "./content-types.js";
import { CFB_SIGNATURE, CFB_STORAGE, CFB_STREAM, readCfbRootEntries } from "./cfb-directory.js";
import { inflateBounded } from "./inflate.js";
import { locateCentralDirectory, readEntries, type ZipEntryInfo } from "./zip-directory.js";

const NAME = "office_structure";

/** Workbook stream names: "Workbook" for BIFF8 (Excel 97+), "Book" for BIFF5. */
const WORKBOOK_STREAMS = new Set(["workbook", "book"]);

/**
 * XLS policy: allowed only without the storages that carry code or embedded objects. VBA lives in
 * `_VBA_PROJECT_CUR` (Excel), `Macros` and `_VBA_PROJECT` (other Office writers); embedded OLE
 * objects in `MBD...` storages and `ObjectPool`. Excel 4.0 macro sheets and DDE formulas live
 * inside the Workbook stream's records, which are not parsed: an XLS is otherwise accepted, and
 * XLSX is the format to ask of importers.
 */
const CODE_STORAGES = new Set(["_vba_project_cur", "macros", "_vba_project"]);
const OBJECT_STORAGES = (name: string) => name === "objectpool" || name.startsWith("mbd");

/** Bounds on what an XLSX declares it expands to (the central directory's uncompressed sizes). */
export interface OfficeLimits {
  /** Largest sum of declared uncompressed sizes over the file size. */
  maxExpansionRatio: number;
  /** Largest sum of declared uncompressed sizes. */
  maxUncompressedBytes: number;
}

export const DEFAULT_OFFICE_LIMITS: OfficeLimits = { maxExpansionRatio: 100, maxUncompressedBytes: 1024 * 1024 * 1024 };

/** [Content_Types].xml is a few KB; more is refused rather than inflated. */
const MAX_CONTENT_TYPES_BYTES = 1024 * 1024;
/** .bin parts whose first bytes are read (printer settings, say); more is not a spreadsheet. */
const MAX_BINARY_PARTS = 32;

/** Content types (lowercase) of parts that carry code, links out, or embedded programs. */
const FORBIDDEN_CONTENT_TYPES: [string, "OFFICE_MACROS" | "OFFICE_EXTERNAL_LINKS" | "OFFICE_EMBEDDED_OBJECT"][] = [
  ["vnd.ms-office.vbaproject", "OFFICE_MACROS"],
  ["macroenabled", "OFFICE_MACROS"],
  ["macrosheet", "OFFICE_MACROS"],
  ["dialogsheet", "OFFICE_MACROS"],
  ["externallink", "OFFICE_EXTERNAL_LINKS"],
  ["vnd.ms-office.activex", "OFFICE_EMBEDDED_OBJECT"],
  ["oleobject", "OFFICE_EMBEDDED_OBJECT"],
];

/** Part name prefixes (lowercase) of the same. */
const FORBIDDEN_FOLDERS: [string, "OFFICE_MACROS" | "OFFICE_EXTERNAL_LINKS" | "OFFICE_EMBEDDED_OBJECT"][] = [
  ["xl/macrosheets/", "OFFICE_MACROS"],
  ["xl/dialogsheets/", "OFFICE_MACROS"],
  ["xl/externallinks/", "OFFICE_EXTERNAL_LINKS"],
  ["xl/activex/", "OFFICE_EMBEDDED_OBJECT"],
  ["xl/embeddings/", "OFFICE_EMBEDDED_OBJECT"],
];

/**
 * Proves that an office container is a spreadsheet: an OLE2 file with a workbook stream (XLS), or
 * a ZIP package with OOXML content types and a part under `xl/` (XLSX). A Word document or a
 * plain ZIP has the same outer signature and is refused here. Macro-bearing files are refused too.
 */
export async function checkOfficeStructure(type: ContentType, source: ByteSource, limits = DEFAULT_OFFICE_LIMITS): Promise<CheckResult> {
  if (type === CONTENT_TYPES.xls) return checkXls(source);
  if (type === CONTENT_TYPES.xlsx) return checkXlsx(source, limits);
  return failed(NAME, "OFFICE_CORRUPT", `${type} is not an office spreadsheet type`);
}

async function checkXls(source: ByteSource): Promise<CheckResult> {
  const entries = await readCfbRootEntries(source);
  if (!entries.ok) return failed(NAME, "OFFICE_CORRUPT", entries.why);
  const names = entries.value.map((entry) => ({ ...entry, name: entry.name.toLowerCase() }));
  if (names.some((entry) => entry.type === CFB_STORAGE && CODE_STORAGES.has(entry.name))) {
    return failed(NAME, "OFFICE_MACROS", "the workbook contains a VBA project");
  }
  if (names.some((entry) => entry.type === CFB_STORAGE && OBJECT_STORAGES(entry.name))) {
    return failed(NAME, "OFFICE_EMBEDDED_OBJECT", "the workbook contains embedded OLE objects");
  }
  if (!names.some((entry) => entry.type === CFB_STREAM && WORKBOOK_STREAMS.has(entry.name))) {
    return failed(NAME, "OFFICE_NOT_SPREADSHEET", "the OLE2 container has no Workbook stream");
  }
  return passed(NAME);
}

/**
 * Refuses, besides non-spreadsheets: macros (a VBA part under any name, by name, by declared
 * content type, or as an OLE container in a .bin part; Excel 4.0 macro sheets), external and DDE
 * links (`xl/externalLinks/`), ActiveX and embedded objects, and a package whose declared
 * uncompressed size is out of bounds (a ZIP bomb the importer would inflate).
 */
async function checkXlsx(source: ByteSource, limits: OfficeLimits): Promise<CheckResult> {
  const location = await locateCentralDirectory(source);
  if (!location.ok) return failed(NAME, "OFFICE_CORRUPT", location.why);
  const { offset, size, entries: count } = location.value;
  const entries = readEntries(await source.read(offset, size), count);
  if (!entries.ok) return failed(NAME, "OFFICE_CORRUPT", entries.why);
  // OPC part names compare case-insensitively.
  const parts = entries.value.map((entry) => ({ ...entry, name: entry.name.toLowerCase() }));
  const contentTypes = parts.find((part) => part.name === "[content_types].xml");
  if (!contentTypes) {
    return failed(NAME, "OFFICE_NOT_SPREADSHEET", "the ZIP package has no [Content_Types].xml part");
  }
  if (!parts.some((part) => part.name.startsWith("xl/"))) {
    return failed(NAME, "OFFICE_NOT_SPREADSHEET", "the package has no spreadsheet part under xl/");
  }
  return (
    checkExpansion(parts, source.size, limits) ??
    checkPartNames(parts) ??
    (await checkContentTypes(source, contentTypes)) ??
    (await checkBinaryParts(source, parts)) ??
    passed(NAME)
  );
}

function checkExpansion(parts: ZipEntryInfo[], fileSize: number, limits: OfficeLimits): CheckResult | undefined {
  const declared = parts.reduce((total, part) => total + part.uncompressedSize, 0);
  if (declared > limits.maxUncompressedBytes || declared > limits.maxExpansionRatio * fileSize) {
    return failed(
      NAME,
      "OFFICE_EXPANSION_TOO_LARGE",
      `the parts declare ${declared} bytes uncompressed from a ${fileSize}-byte file (limits: ${limits.maxUncompressedBytes} bytes, ${limits.maxExpansionRatio}x)`,
    );
  }
  return undefined;
}

function checkPartNames(parts: ZipEntryInfo[]): CheckResult | undefined {
  if (parts.some((part) => part.name.endsWith("vbaproject.bin"))) {
    return failed(NAME, "OFFICE_MACROS", "the package contains a VBA project");
  }
  for (const part of parts) {
    const folder = FORBIDDEN_FOLDERS.find(([prefix]) => part.name.startsWith(prefix));
    if (folder) return failed(NAME, folder[1], `the package contains ${part.name}`);
  }
  return undefined;
}

/** A part renamed away from its usual folder still declares its content type here. */
async function checkContentTypes(source: ByteSource, part: ZipEntryInfo): Promise<CheckResult | undefined> {
  const xml = await readPart(source, part, MAX_CONTENT_TYPES_BYTES, false);
  if (!xml.ok) return failed(NAME, "OFFICE_CORRUPT", `[Content_Types].xml: ${xml.why}`);
  const text = new TextDecoder("latin1").decode(xml.value).toLowerCase();
  const forbidden = FORBIDDEN_CONTENT_TYPES.find(([type]) => text.includes(type));
  return forbidden ? failed(NAME, forbidden[1], `[Content_Types].xml declares a ${forbidden[0]} part`) : undefined;
}

/** A .bin part that is an OLE2 container is a VBA project, an ActiveX control or an embedded object. */
async function checkBinaryParts(source: ByteSource, parts: ZipEntryInfo[]): Promise<CheckResult | undefined> {
  const binaries = parts.filter((part) => part.name.endsWith(".bin"));
  if (binaries.length > MAX_BINARY_PARTS) return failed(NAME, "OFFICE_EMBEDDED_OBJECT", `the package has ${binaries.length} binary parts`);
  for (const part of binaries) {
    const head = await readPart(source, part, CFB_SIGNATURE.length, true);
    if (head.ok && hasBytesAt(head.value, 0, CFB_SIGNATURE)) {
      return failed(NAME, "OFFICE_EMBEDDED_OBJECT", `${part.name} is an OLE2 container (VBA project, ActiveX control or embedded object)`);
    }
  }
  return undefined;
}

const LOCAL_HEADER_BYTES = 30;
/** Compressed bytes read to inflate the first bytes of a part. */
const PREFIX_INPUT_BYTES = 4096;

/** A part's bytes (stored or deflated), at most `maxBytes` of them; `prefix` takes just the start. */
async function readPart(source: ByteSource, part: ZipEntryInfo, maxBytes: number, prefix: boolean) {
  const header = await source.read(part.localHeaderOffset, LOCAL_HEADER_BYTES);
  const nameLength = u16le(header, 26);
  const extraLength = u16le(header, 28);
  if (nameLength === undefined || extraLength === undefined) return { ok: false as const, why: "local header truncated" };
  const start = part.localHeaderOffset + LOCAL_HEADER_BYTES + nameLength + extraLength;
  if (part.method === 0) {
    if (!prefix && part.compressedSize > maxBytes) return { ok: false as const, why: `larger than ${maxBytes} bytes` };
    return { ok: true as const, value: await source.read(start, Math.min(part.compressedSize, maxBytes)) };
  }
  if (part.method !== 8) return { ok: false as const, why: `compression method ${part.method} is not supported` };
  const inputBytes = prefix ? Math.min(part.compressedSize, PREFIX_INPUT_BYTES) : part.compressedSize;
  if (inputBytes > maxBytes) return { ok: false as const, why: `larger than ${maxBytes} bytes` };
  return inflateBounded(await source.read(start, inputBytes), "deflate-raw", maxBytes, prefix);
}
