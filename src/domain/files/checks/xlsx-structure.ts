import type { ByteSource } from "./byte-source.js";
import { hasBytesAt } from "./bytes.js";
import { CFB_SIGNATURE } from "./cfb-directory.js";
import { failed, passed, type CheckResult, type ScanReason } from "./check-result.js";
import type { OfficeLimits } from "./office-limits.js";
import { MAX_XML_TOTAL_BYTES, OpcXmlReader, type OfficeProblem, type XmlAllowance } from "./opc-xml.js";
import { locateCentralDirectory, readEntries, type ZipEntryInfo } from "./zip-directory.js";
import { readParts, type PartSink } from "./zip-parts.js";

const NAME = "office_structure";

/** .bin parts whose first bytes are looked at (printer settings, say); more is not a spreadsheet. */
const MAX_BINARY_PARTS = 32;

/** Part name prefixes (normalised) of parts that carry code, links out, or embedded programs. */
const FORBIDDEN_FOLDERS: [string, OfficeProblem["reason"]][] = [
  ["xl/macrosheets/", "OFFICE_MACROS"],
  ["xl/dialogsheets/", "OFFICE_MACROS"],
  ["xl/externallinks/", "OFFICE_EXTERNAL_LINKS"],
  ["xl/activex/", "OFFICE_EMBEDDED_OBJECT"],
  ["xl/embeddings/", "OFFICE_EMBEDDED_OBJECT"],
];

interface Part extends ZipEntryInfo {
  /** The OPC part name as a reader resolves it: percent-escapes decoded, `\` as `/`, lowercase. */
  key: string;
}

/**
 * Refuses, besides non-spreadsheets: macros (a VBA part under any name, by name, by declared
 * content type, by relationship, or as an OLE container in a .bin part; Excel 4.0 macro sheets),
 * external and DDE links, ActiveX and embedded objects, and a package that inflates beyond its
 * bounds. Sizes are bounded twice: what the directory declares (refused before anything is
 * inflated) and what every part actually produces while it is inflated (a part lying about its
 * size is cut off at the lie). Content types and relationships are read with an XML parser.
 */
export async function checkXlsx(source: ByteSource, limits: OfficeLimits): Promise<CheckResult> {
  const location = await locateCentralDirectory(source);
  if (!location.ok) return failed(NAME, "OFFICE_CORRUPT", location.why);
  const { offset, size, entries: count } = location.value;
  const entries = readEntries(await source.read(offset, size), count);
  if (!entries.ok) return failed(NAME, "OFFICE_CORRUPT", entries.why);
  const parts = entries.value.map((entry) => ({ ...entry, key: partKey(entry.name) }));
  const keys = new Set(parts.map((part) => part.key));
  if (keys.size !== parts.length) return failed(NAME, "OFFICE_CORRUPT", "two parts have the same name");
  if (!keys.has("[content_types].xml")) return failed(NAME, "OFFICE_NOT_SPREADSHEET", "the ZIP package has no [Content_Types].xml part");
  if (!parts.some((part) => part.key.startsWith("xl/"))) return failed(NAME, "OFFICE_NOT_SPREADSHEET", "the package has no spreadsheet part under xl/");
  const budget = Math.min(limits.maxUncompressedBytes, limits.maxExpansionRatio * source.size);
  const problem = checkDeclaredSize(parts, source.size, limits, budget) ?? checkPartNames(parts) ?? (await checkContents(source, parts, offset, budget));
  return problem ? failed(NAME, problem.reason, problem.message) : passed(NAME);
}

type Problem = { reason: ScanReason; message: string };

function checkDeclaredSize(parts: Part[], fileSize: number, limits: OfficeLimits, budget: number): Problem | undefined {
  const declared = parts.reduce((total, part) => total + part.uncompressedSize, 0);
  if (declared <= budget) return undefined;
  return {
    reason: "OFFICE_EXPANSION_TOO_LARGE",
    message: `the parts declare ${declared} bytes uncompressed from a ${fileSize}-byte file (limits: ${limits.maxUncompressedBytes} bytes, ${limits.maxExpansionRatio}x)`,
  };
}

function checkPartNames(parts: Part[]): Problem | undefined {
  if (parts.some((part) => part.key.endsWith("vbaproject.bin"))) return { reason: "OFFICE_MACROS", message: "the package contains a VBA project" };
  const binaries = parts.filter((part) => part.key.endsWith(".bin")).length;
  if (binaries > MAX_BINARY_PARTS) return { reason: "OFFICE_EMBEDDED_OBJECT", message: `the package has ${binaries} binary parts` };
  for (const part of parts) {
    const folder = FORBIDDEN_FOLDERS.find(([prefix]) => part.key.startsWith(prefix));
    if (folder) return { reason: folder[1], message: `the package contains ${part.name}` };
  }
  return undefined;
}

/** Inflates every part once; content types and relationships are parsed, .bin parts' heads looked at. */
async function checkContents(source: ByteSource, parts: Part[], directoryOffset: number, budget: number): Promise<Problem | undefined> {
  const readers: OpcXmlReader[] = [];
  const allowance: XmlAllowance = { remaining: MAX_XML_TOTAL_BYTES };
  const heads = new Map<string, BinaryHead>();
  const sinkFor = (entry: ZipEntryInfo): PartSink | undefined => {
    const key = partKey(entry.name);
    if (key === "[content_types].xml" || key.endsWith(".rels")) {
      const reader = new OpcXmlReader(entry.name, key.endsWith(".rels") ? "relationships" : "content-types", allowance);
      readers.push(reader);
      return reader;
    }
    if (!key.endsWith(".bin")) return undefined;
    const head = new BinaryHead();
    heads.set(entry.name, head);
    return head;
  };
  const problem = await readParts(source, parts, directoryOffset, budget, sinkFor);
  if (problem) return problem;
  for (const reader of readers) {
    const found = reader.end();
    if (found) return found;
  }
  for (const [name, head] of heads) {
    if (hasBytesAt(head.bytes, 0, CFB_SIGNATURE)) {
      return { reason: "OFFICE_EMBEDDED_OBJECT", message: `${name} is an OLE2 container (VBA project, ActiveX control or embedded object)` };
    }
  }
  return undefined;
}

/** Keeps the first bytes of a part: enough for the OLE2 signature. */
class BinaryHead implements PartSink {
  bytes: Uint8Array = new Uint8Array(0);

  push(bytes: Uint8Array): void {
    if (this.bytes.length >= CFB_SIGNATURE.length) return;
    const next = new Uint8Array(Math.min(CFB_SIGNATURE.length, this.bytes.length + bytes.length));
    next.set(this.bytes, 0);
    next.set(bytes.subarray(0, next.length - this.bytes.length), this.bytes.length);
    this.bytes = next;
  }
}

/** ZIP item names are OPC part names percent-encoded (ECMA-376 Part 2, 9.1.1); they compare case-insensitively. */
function partKey(name: string): string {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // A malformed escape is kept as written: no reader resolves it to another name either.
  }
  return decoded.replaceAll("\\", "/").replace(/^\/+/, "").toLowerCase();
}
