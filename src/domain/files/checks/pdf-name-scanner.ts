import { decodeName, ENDS_NAME, MAX_NAME_BYTES, SOLIDUS } from "./pdf-names.js";

export type Found = "javascript" | "launch" | "embedded" | "xfa";

/** The names that mark each finding, as a reader sees them after `#xx` escapes are decoded. */
const NAMES: ReadonlyMap<string, Found> = new Map([
  ["JS", "javascript"],
  ["JavaScript", "javascript"],
  ["Launch", "launch"],
  ["EmbeddedFile", "embedded"],
  ["EmbeddedFiles", "embedded"],
  ["XFA", "xfa"],
]);

/** First bytes of the names looked for, and `#` (an escaped first letter). */
const MAY_START = new Uint8Array(256);
for (const name of NAMES.keys()) MAY_START[name.charCodeAt(0)] = 1;
MAY_START[0x23] = 1;

/**
 * Finds the names that make a PDF act rather than display: JavaScript (`/JS`, `/JavaScript`),
 * launch actions (`/Launch`, which run a program), attached files (`/EmbeddedFile`) and XFA forms
 * (`/XFA`, which carry their own scripts). Names are matched with their `#xx` escapes decoded
 * (`/J#61vaScript` is `/JavaScript` to a reader). One pass over every byte in constant memory:
 * these objects can sit anywhere in the file. Compressed streams are read by PdfStreamInflater,
 * which feeds what they inflate to scanners sharing one `found` set.
 */
export class PdfNameScanner {
  /** The current name's bytes, reused from name to name; `inName` says whether one is open. */
  private readonly name: number[] = [];
  private inName = false;

  constructor(private readonly found = new Set<Found>()) {}

  /**
   * Between names, the next `/` is found with a native search: most bytes are never looked at.
   * A name inside the chunk is looked at in place; only one cut by the chunk's end is copied.
   */
  push(chunk: Uint8Array): void {
    let i = 0;
    if (this.inName) {
      i = this.continueName(chunk, 0);
      if (i === chunk.length) return;
      this.endName();
    }
    while (i < chunk.length) {
      // A name ended by `/` is followed by another (`/a/b`): no search needed.
      const start = chunk[i] === SOLIDUS ? i : chunk.indexOf(SOLIDUS, i);
      if (start < 0) return;
      let end = start + 1;
      while (end < chunk.length && ENDS_NAME[chunk[end]!] === 0) end++;
      if (end === chunk.length) {
        this.name.length = 0;
        this.inName = true;
        this.continueName(chunk, start + 1);
        return;
      }
      if (MAY_START[chunk[start + 1]!] === 1) this.match(chunk.subarray(start + 1, Math.min(end, start + 1 + MAX_NAME_BYTES)));
      i = end;
    }
  }

  /** Takes the name's bytes up to the byte that ends it (or the chunk's end); answers its index. */
  private continueName(chunk: Uint8Array, from: number): number {
    const name = this.name;
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
    if (!this.inName) return;
    this.inName = false;
    if (MAY_START[this.name[0] ?? 0] === 1) this.match(this.name);
  }

  /** Most names (/Type, /F1, /a) cannot be one looked for and are never decoded. */
  private match(bytes: ArrayLike<number>): void {
    const kind = NAMES.get(decodeName(bytes));
    if (kind) this.found.add(kind);
  }
}

