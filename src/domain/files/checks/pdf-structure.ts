import type { ByteSource } from "./byte-source.js";
import { failed, passed, type CheckResult } from "./check-result.js";
import { indexOfBytes } from "./bytes.js";
import { MAGIC_HEAD_BYTES } from "./magic-bytes.js";
import { readTail } from "./read-tail.js";
import { EOCD_SEARCH_BYTES, findEndOfCentralDirectory } from "./zip-directory.js";

const NAME = "pdf_structure";

/** PDF readers look for the end-of-file marker within the last 1024 bytes. */
const EOF_WINDOW_BYTES = 1024;

const HEADER = /^%PDF-\d\.\d/;

/** Local file header, central directory entry, end of central directory. */
const ZIP_SIGNATURES = [
  [0x50, 0x4b, 0x03, 0x04],
  [0x50, 0x4b, 0x01, 0x02],
  [0x50, 0x4b, 0x05, 0x06],
];

/**
 * Checks a PDF's header and trailer marker and refuses PDF/ZIP polyglots: a file that a PDF
 * viewer shows as a harmless document while a ZIP reader (or a browser sniffing a JAR) opens an
 * archive. ZIP readers find an archive by its end record in the last 64 KB, so that is searched
 * structurally; raw ZIP signatures are also refused in the head and in the last 1 KB.
 */
export async function checkPdfStructure(source: ByteSource): Promise<CheckResult> {
  const head = await source.read(0, MAGIC_HEAD_BYTES);
  const version = new TextDecoder("latin1").decode(head.subarray(0, 8));
  if (!HEADER.test(version)) return failed(NAME, "PDF_INVALID_HEADER", "the file does not start with %PDF-n.n");
  const tail = await readTail(source, EOCD_SEARCH_BYTES);
  const lastBytes = tail.subarray(Math.max(0, tail.length - EOF_WINDOW_BYTES));
  if (hasZipSignature(head) || hasZipSignature(lastBytes) || findEndOfCentralDirectory(tail) >= 0) {
    return failed(NAME, "PDF_POLYGLOT", "the PDF also contains a ZIP archive");
  }
  if (indexOfBytes(lastBytes, "%%EOF") < 0) {
    return failed(NAME, "PDF_MISSING_EOF", `no %%EOF marker in the last ${EOF_WINDOW_BYTES} bytes (truncated?)`);
  }
  return passed(NAME);
}

function hasZipSignature(bytes: Uint8Array): boolean {
  return ZIP_SIGNATURES.some((signature) => indexOfBytes(bytes, signature) >= 0);
}
