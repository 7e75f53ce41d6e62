import { u16le } from "./bytes.js";

const BOF = 0x0809;
const EOF = 0x000a;
const FILEPASS = 0x002f;
const BOUNDSHEET = 0x0085;
/** The largest record BIFF8 allows (MS-XLS 2.1.4); anything longer is not an Excel record. */
const MAX_RECORD_BYTES = 8224;

/** BOUNDSHEET sheet types (MS-XLS 2.4.28, `dt`) that hold code: an Excel 4.0 macro sheet, a VB module. */
const MACRO_SHEET_TYPES: ReadonlyMap<number, string> = new Map([
  [0x01, "an Excel 4.0 macro sheet"],
  [0x06, "a VBA module sheet"],
]);

export type GlobalsVerdict =
  | { kind: "clean" }
  | { kind: "macros"; message: string }
  | { kind: "encrypted" }
  | { kind: "corrupt"; message: string };

/**
 * Reads the records of a Workbook (BIFF8) or Book (BIFF5) stream's first substream, the
 * workbook globals, where every sheet is declared by a BOUNDSHEET record with its type. Bytes
 * are pushed in pieces of any size; only a record header and a BOUNDSHEET's first bytes are ever
 * kept, the other records are skipped, and reading ends at the globals' EOF record.
 */
export class BiffGlobalsReader {
  /** The current record's header, then the first bytes of its body when they are wanted. */
  private pending: Uint8Array = new Uint8Array(0);
  /** How many body bytes are wanted (0 for most records: they are skipped). */
  private want = 0;
  private skip = 0;
  private records = 0;
  private verdict: GlobalsVerdict | undefined;

  /** False once the globals are read (or a verdict is known): no more bytes are needed. */
  push(bytes: Uint8Array): boolean {
    let at = 0;
    while (at < bytes.length && !this.verdict) {
      if (this.skip > 0) {
        const step = Math.min(this.skip, bytes.length - at);
        this.skip -= step;
        at += step;
        continue;
      }
      const goal = this.pending.length < 4 ? 4 : 4 + this.want;
      const take = bytes.subarray(at, at + goal - this.pending.length);
      this.pending = concat(this.pending, take);
      at += take.length;
      if (this.pending.length < goal) continue;
      if (goal === 4) this.header();
      else this.record();
    }
    return !this.verdict;
  }

  /** The globals must have ended: a stream cut short before their EOF is corrupt. */
  finish(): GlobalsVerdict {
    return this.verdict ?? { kind: "corrupt", message: "the Workbook stream ends before its globals do" };
  }

  private header(): void {
    const type = u16le(this.pending, 0)!;
    const length = u16le(this.pending, 2)!;
    if (this.records === 0 && type !== BOF) this.verdict = { kind: "corrupt", message: "the Workbook stream does not start with a BOF record" };
    else if (length > MAX_RECORD_BYTES) this.verdict = { kind: "corrupt", message: `a ${length}-byte record is longer than BIFF allows` };
    else if (type === BOUNDSHEET && length > 0) this.want = Math.min(length, 6);
    else this.record();
  }

  private record(): void {
    const type = u16le(this.pending, 0)!;
    const length = u16le(this.pending, 2)!;
    if (type === FILEPASS) this.verdict = { kind: "encrypted" };
    else if (type === EOF) this.verdict = { kind: "clean" };
    else if (type === BOUNDSHEET) {
      const sheet = MACRO_SHEET_TYPES.get(this.pending[4 + 5] ?? -1);
      if (sheet) this.verdict = { kind: "macros", message: `the workbook declares ${sheet}` };
    }
    this.records++;
    this.skip = length - (this.pending.length - 4);
    this.pending = new Uint8Array(0);
    this.want = 0;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
