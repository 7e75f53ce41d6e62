import type { ByteSource } from "./byte-source.js";
import { failed, finding, passed, type CheckResult } from "./check-result.js";
import type { Disposition } from "./content-policy.js";

const NAME = "pdf_active_content";

/** Longer names are not among those looked for; their bytes are not kept. */
const MAX_NAME_BYTES = 64;

const SOLIDUS = 0x2f;
const HASH = 0x23;

/** Whitespace and delimiters end a name (PDF 32000-1, 7.2.2); a table, as every byte is looked up. */
const ENDS_NAME = new Uint8Array(256);
for (const byte of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]) ENDS_NAME[byte] = 1;

type Found = "javascript" | "launch" | "embedded";

/** The names that mark each finding, as a reader sees them after `#xx` escapes are decoded. */
const NAMES: ReadonlyMap<string, Found> = new Map([
  ["JS", "javascript"],
  ["JavaScript", "javascript"],
  ["Launch", "launch"],
  ["EmbeddedFile", "embedded"],
  ["EmbeddedFiles", "embedded"],
]);

/**
 * Finds the names that make a PDF act rather than display: JavaScript (`/JS`, `/JavaScript`),
 * launch actions (`/Launch`, which run a program) and attached files (`/EmbeddedFile`). Names are
 * matched with their `#xx` escapes decoded (`/J#61vaScript` is `/JavaScript` to a reader). One
 * pass over every byte in constant memory: these objects can sit anywhere in the file.
 *
 * Limit: names inside compressed object streams (`/ObjStm`, PDF 1.5+) are not inflated and so
 * not seen.
 */
export class PdfNameScanner {
  private readonly found = new Set<Found>();
  private name: number[] | undefined;

  /** Between names, the next `/` is found with a native search: most bytes are never looked at. */
  push(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.name !== undefined) {
        i = this.continueName(chunk, i);
        if (i === chunk.length) return;
        this.endName();
      }
      const start = chunk.indexOf(SOLIDUS, i);
      if (start < 0) return;
      this.name = [];
      i = start + 1;
    }
  }

  /** Takes the name's bytes up to the byte that ends it (or the chunk's end); answers its index. */
  private continueName(chunk: Uint8Array, from: number): number {
    const name = this.name!;
    let i = from;
    while (i < chunk.length && ENDS_NAME[chunk[i]!] === 0) {
      if (name.length < MAX_NAME_BYTES) name.push(chunk[i]!);
      i++;
    }
    return i;
  }

  /** What was found, once every byte was pushed. */
  finish(): ReadonlySet<Found> {
    this.endName();
    return this.found;
  }

  private endName(): void {
    if (this.name === undefined) return;
    const kind = NAMES.get(decodeName(this.name));
    if (kind) this.found.add(kind);
    this.name = undefined;
  }
}

/** `#` followed by two hex digits stands for that byte. */
function decodeName(bytes: number[]): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    const hex = bytes[i] === HASH ? String.fromCharCode(bytes[i + 1] ?? 0, bytes[i + 2] ?? 0) : "";
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      out += String.fromCharCode(parseInt(hex, 16));
      i += 2;
    } else {
      out += String.fromCharCode(bytes[i]);
    }
  }
  return out;
}

/** JavaScript and launch actions refuse for every class; embedded files as the class says. */
export async function checkPdfActiveContent(source: ByteSource, embeddedFiles: Disposition): Promise<CheckResult> {
  const scanner = new PdfNameScanner();
  for await (const chunk of source.stream()) scanner.push(chunk);
  const found = scanner.finish();
  if (found.has("javascript")) return failed(NAME, "PDF_JAVASCRIPT", "the PDF contains JavaScript (/JS or /JavaScript)");
  if (found.has("launch")) return failed(NAME, "PDF_LAUNCH_ACTION", "the PDF contains a launch action (/Launch), which starts a program");
  if (found.has("embedded")) return finding(NAME, "PDF_EMBEDDED_FILE", "the PDF contains an attached file (/EmbeddedFile)", embeddedFiles);
  return passed(NAME);
}
