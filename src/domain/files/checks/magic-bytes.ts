import { fileTypeFromBuffer } from "file-type";
import type { ByteSource } from "./byte-source.js";
import { failed, passed, type CheckResult } from "./check-result.js";
import { CONTENT_TYPES, type ContentType } from "./content-types.js";
import { hasBytesAt } from "./bytes.js";

/** How much of the head is sniffed: file-type's own recommended sample size. */
export const MAGIC_HEAD_BYTES = 4100;

const NAME = "magic_bytes";

interface BinaryRule {
  /** The type's own signature at offset 0, from the format specification. */
  signature(head: Uint8Array): boolean;
  /** file-type extensions that are consistent with the declared type. */
  sniffed: ReadonlySet<string>;
}

/**
 * Binary types need both: their own signature (so a file file-type cannot name, such as a PNG
 * truncated before IHDR, still reaches the structural checks that give the precise reason), and
 * no contradicting verdict from file-type (so JPEG-LS, DOCX or an APNG-looking EXE are refused).
 */
const BINARY_RULES: Partial<Record<ContentType, BinaryRule>> = {
  [CONTENT_TYPES.jpeg]: { signature: (h) => hasBytesAt(h, 0, [0xff, 0xd8, 0xff]), sniffed: new Set(["jpg"]) },
  [CONTENT_TYPES.png]: {
    signature: (h) => hasBytesAt(h, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    sniffed: new Set(["png", "apng"]),
  },
  [CONTENT_TYPES.webp]: {
    signature: (h) => hasBytesAt(h, 0, "RIFF") && hasBytesAt(h, 8, "WEBP"),
    sniffed: new Set(["webp"]),
  },
  [CONTENT_TYPES.pdf]: { signature: (h) => hasBytesAt(h, 0, "%PDF-"), sniffed: new Set(["pdf"]) },
  [CONTENT_TYPES.xls]: {
    signature: (h) => hasBytesAt(h, 0, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
    sniffed: new Set(["cfb"]),
  },
  // file-type names an OOXML package "xlsx" only when it can read the content types in the
  // head; otherwise it says "zip". office_structure then proves it is a spreadsheet package.
  [CONTENT_TYPES.xlsx]: { signature: (h) => hasBytesAt(h, 0, [0x50, 0x4b, 0x03, 0x04]), sniffed: new Set(["zip", "xlsx"]) },
};

/** Checks that the head of the file carries the signature of the declared type and no other. */
export async function checkMagicBytes(type: ContentType, source: ByteSource): Promise<CheckResult> {
  if (source.size === 0) return failed(NAME, "EMPTY_FILE", "the file is empty");
  const head = await source.read(0, MAGIC_HEAD_BYTES);
  const sniffed = await sniff(head);
  if (type === CONTENT_TYPES.svg) return checkSvgHead(head, sniffed);
  if (type === CONTENT_TYPES.csv) return checkCsvHead(head, sniffed);
  const rule = BINARY_RULES[type];
  if (!rule) return failed(NAME, "UNSUPPORTED_CONTENT_TYPE", `no signature rule for ${type}`);
  if (!rule.signature(head) || (sniffed && !rule.sniffed.has(sniffed.ext))) {
    return mismatch(type, sniffed);
  }
  return passed(NAME);
}

/** SVG has no magic number: it must look like markup and not like any binary format. */
function checkSvgHead(head: Uint8Array, sniffed: Sniffed | undefined): CheckResult {
  if (sniffed && sniffed.ext !== "xml") return mismatch(CONTENT_TYPES.svg, sniffed);
  if (firstMeaningfulByte(head) !== 0x3c /* < */) {
    return failed(NAME, "MAGIC_MISMATCH", "declared image/svg+xml but the content does not start with markup");
  }
  return passed(NAME);
}

/**
 * CSV has no magic number: refuse it when file-type recognizes a binary format. A recognition on
 * plain text is ignored because some signatures are printable (file-type calls anything starting
 * with "BM" a bitmap, which a header such as "BMI,weight" also does); csv_structure judges text.
 */
function checkCsvHead(head: Uint8Array, sniffed: Sniffed | undefined): CheckResult {
  if (sniffed && !looksLikeText(head)) return mismatch(CONTENT_TYPES.csv, sniffed);
  return passed(NAME);
}

interface Sniffed {
  ext: string;
  mime: string;
}

/**
 * file-type's verdict on the head. If file-type throws on a hostile head we treat the content as
 * unrecognized: the signature rules above (and the structural checks after them) still gate it.
 */
async function sniff(head: Uint8Array): Promise<Sniffed | undefined> {
  try {
    return await fileTypeFromBuffer(head);
  } catch {
    return undefined;
  }
}

function mismatch(type: ContentType, sniffed: Sniffed | undefined): CheckResult {
  const actual = sniffed ? `${sniffed.mime} (${sniffed.ext})` : "not recognized";
  return failed(NAME, "MAGIC_MISMATCH", `declared ${type} but the content signature is ${actual}`);
}

/** First byte after an optional UTF-8 BOM and XML whitespace. */
function firstMeaningfulByte(head: Uint8Array): number | undefined {
  let i = hasBytesAt(head, 0, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (i < head.length && isXmlSpace(head[i])) i++;
  return head[i];
}

function isXmlSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * Plain text: valid UTF-8 (a sequence cut by the end of the head is fine) with no control
 * characters other than tab, line feed, form feed and carriage return. Binary headers always
 * contain such bytes (NULs in length fields, 0x1A in the PNG signature, ...).
 */
function looksLikeText(head: Uint8Array): boolean {
  for (const byte of head) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) return false;
    if (byte === 0x7f) return false;
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}
