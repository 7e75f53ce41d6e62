import { BoundedInflater, isZlibHeader } from "./bounded-inflater.js";
import type { ScanReason } from "./check-result.js";
import { PdfNameScanner, type Found } from "./pdf-name-scanner.js";
import { namesIn } from "./pdf-names.js";

/** Caps on the bytes that object streams inflate to, counted as they are produced. */
export interface PdfInflationLimits {
  /** Most bytes one object stream may inflate to. */
  maxObjectStreamBytes: number;
  /** Most bytes the object streams of one file may inflate to together. */
  maxFileBytes: number;
}

export const DEFAULT_PDF_INFLATION_LIMITS: PdfInflationLimits = { maxObjectStreamBytes: 16 * 1024 * 1024, maxFileBytes: 64 * 1024 * 1024 };

/**
 * Other compressed streams (page contents, fonts, images) hold no object a viewer acts on, so
 * they are searched only best effort: each up to this many bytes, all together up to a quarter
 * of the file cap. What lies beyond is not searched and refuses nothing.
 */
const OTHER_STREAM_BYTES = 1024 * 1024;

/**
 * Streams inflated per file, of each kind: starting an inflation costs about 0.2 ms whatever the
 * stream's size, so a file of many tiny streams would cost minutes. A real PDF has a few hundred
 * object streams (each holds up to a few hundred objects); more refuses the file, while other
 * streams past the count are simply not searched.
 */
export const MAX_INFLATED_STREAMS = 4096;

/** A stream dictionary is a few hundred bytes; the bytes before `stream` kept to read it. */
const DICTIONARY_WINDOW = 16 * 1024;

/** Names that make a stream an object stream to a viewer (pdf.js needs only /First and /N). */
const OBJECT_STREAM_NAMES = ["ObjStm", "First"];
const FLATE = new Set(["FlateDecode", "Fl"]);
/** Filters and parameters whose output the name search could not read. */
const UNREADABLE = new Set([
  "ASCIIHexDecode", "AHx", "ASCII85Decode", "A85", "LZWDecode", "LZW", "RunLengthDecode", "RL",
  "CCITTFaxDecode", "CCF", "JBIG2Decode", "DCTDecode", "DCT", "JPXDecode", "Crypt", "Predictor",
]);

export interface StreamProblem {
  reason: Extract<ScanReason, "PDF_OBJECT_STREAM_UNREADABLE" | "PDF_INFLATION_TOO_LARGE">;
  message: string;
}

const STREAM = ascii("stream");
const ENDSTREAM = ascii("endstream");
const OBJ = ascii("obj");
const CR = 0x0d;
const LF = 0x0a;
const IS_SPACE = new Uint8Array(256);
for (const byte of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) IS_SPACE[byte] = 1;

/**
 * Finds each stream (`stream` EOL ... `endstream`) in a PDF read front to back in chunks,
 * inflates the FlateDecode ones (a zlib header is enough: the dictionary is not trusted to say
 * so) and feeds what they produce to name scanners that share the caller's `found` set.
 *
 * Object streams (PDF 1.5+) hold whole objects, actions included, compressed: a viewer reads
 * them, so the scan must too, entirely, or refuse the file. One that inflates past its cap, or is
 * encoded in a way the search cannot read (another filter, a predictor, corrupt data), is a
 * problem; other streams are searched best effort.
 */
export class PdfStreamInflater {
  private window: Uint8Array = new Uint8Array(0);
  private windowOverflowed = false;
  /** Start positions in `window` before this were already examined for `stream`. */
  private examined = 0;
  private body: StreamBody | undefined;
  private held: Uint8Array = new Uint8Array(0);
  private objectStreamBytes = 0;
  private otherBytes = 0;
  private objectStreams = 0;
  private otherStreams = 0;
  private problem: StreamProblem | undefined;

  constructor(
    private readonly found: Set<Found>,
    private readonly limits: PdfInflationLimits = DEFAULT_PDF_INFLATION_LIMITS,
  ) {}

  /** Answers false once a problem is known: the rest of the file need not be inflated. */
  async push(chunk: Uint8Array): Promise<boolean> {
    let rest: Uint8Array | undefined = chunk;
    while (rest && rest.length > 0 && !this.problem) {
      rest = this.body ? await this.inside(rest) : this.outside(rest);
    }
    return !this.problem;
  }

  /** A stream still open at the end of the file ends there. */
  async finish(): Promise<StreamProblem | undefined> {
    if (this.body && !this.problem) await this.endBody(this.held);
    return this.problem;
  }

  /** Looks for the `stream` keyword; answers the bytes after it (the body), if found. */
  private outside(chunk: Uint8Array): Uint8Array | undefined {
    this.window = concat(this.window, chunk);
    for (let at = indexOfWord(this.window, STREAM, this.examined); at >= 0; at = indexOfWord(this.window, STREAM, at + 1)) {
      const after = at + STREAM.length;
      if (after >= this.window.length || (this.window[after] === CR && after + 1 >= this.window.length)) {
        this.examined = at; // the end of line is not here yet
        return undefined;
      }
      const before = at > 0 ? this.window[at - 1]! : 0x20;
      const eol = this.window[after] === CR ? (this.window[after + 1] === LF ? 2 : 1) : this.window[after] === LF ? 1 : 0;
      if (eol === 0 || !(IS_SPACE[before] === 1 || before === 0x3e)) continue;
      this.openBody(this.window.subarray(0, at));
      const rest = this.window.subarray(after + eol);
      this.window = new Uint8Array(0);
      this.windowOverflowed = false;
      this.examined = 0;
      return rest;
    }
    this.examined = Math.max(0, this.window.length - STREAM.length);
    if (this.window.length > DICTIONARY_WINDOW) {
      const drop = this.window.length - DICTIONARY_WINDOW;
      this.window = this.window.slice(drop);
      this.examined -= drop;
      this.windowOverflowed = true;
    }
    return undefined;
  }

  /**
   * Feeds body bytes until `endstream`, holding back what could be its start. Only the held bytes
   * and the chunk's first few are joined to look across the seam: a stream's body is most of a
   * large file, and copying every chunk would allocate the file a second time.
   */
  private async inside(chunk: Uint8Array): Promise<Uint8Array | undefined> {
    const seamLength = ENDSTREAM.length - 1;
    if (this.held.length === 0 || chunk.length < seamLength) return this.insideJoined(concat(this.held, chunk));
    const seam = concat(this.held, chunk.subarray(0, seamLength));
    const end = indexOfWord(seam, ENDSTREAM, 0);
    if (end >= 0 && end < this.held.length) {
      await this.endBody(this.held.subarray(0, end));
      return chunk.subarray(end + ENDSTREAM.length - this.held.length);
    }
    await this.body!.write(this.held);
    this.held = new Uint8Array(0);
    return this.problem ? undefined : this.insideJoined(chunk);
  }

  /** `inside` for bytes with nothing held before them. */
  private async insideJoined(bytes: Uint8Array): Promise<Uint8Array | undefined> {
    const end = indexOfWord(bytes, ENDSTREAM, 0);
    if (end < 0) {
      const keep = Math.min(bytes.length, ENDSTREAM.length - 1);
      await this.body!.write(bytes.subarray(0, bytes.length - keep));
      this.held = bytes.slice(bytes.length - keep);
      return undefined;
    }
    await this.endBody(bytes.subarray(0, end));
    return bytes.subarray(end + ENDSTREAM.length);
  }

  private openBody(before: Uint8Array): void {
    const from = lastIndexOfWord(before, OBJ);
    const dictionary = from < 0 ? (this.windowOverflowed ? undefined : before) : before.subarray(from + OBJ.length);
    const names = dictionary ? namesIn(dictionary) : undefined;
    const isObjectStream = names === undefined || OBJECT_STREAM_NAMES.some((name) => names.has(name));
    const cap = isObjectStream
      ? Math.min(this.limits.maxObjectStreamBytes, this.limits.maxFileBytes - this.objectStreamBytes)
      : Math.min(OTHER_STREAM_BYTES, this.limits.maxFileBytes / 4 - this.otherBytes);
    const count = isObjectStream ? ++this.objectStreams : ++this.otherStreams;
    if (isObjectStream && count > MAX_INFLATED_STREAMS) {
      this.problem = { reason: "PDF_INFLATION_TOO_LARGE", message: `the PDF has more than ${MAX_INFLATED_STREAMS} object streams` };
    }
    // An object stream past the file's budget is inflated with no allowance, so it refuses the file.
    const inflate = count <= MAX_INFLATED_STREAMS && (isObjectStream || cap > 0);
    this.body = new StreamBody(isObjectStream, names, inflate ? Math.max(0, cap) : undefined, new PdfNameScanner(this.found));
    this.held = new Uint8Array(0);
  }

  private async endBody(last: Uint8Array): Promise<void> {
    const body = this.body!;
    await body.write(last);
    const outcome = await body.end();
    this.body = undefined;
    this.held = new Uint8Array(0);
    if (body.isObjectStream) this.objectStreamBytes += body.produced;
    else this.otherBytes += body.produced;
    if (body.isObjectStream) this.problem ??= objectStreamProblem(body.names, outcome, this.limits);
  }
}

type BodyOutcome = "plain" | "complete" | "over-limit" | "corrupt";

/** One stream's body: inflated when it starts with a zlib header, else left to the raw name pass. */
class StreamBody {
  private head: Uint8Array = new Uint8Array(0);
  private inflater: BoundedInflater | undefined;
  private plain = false;

  constructor(
    readonly isObjectStream: boolean,
    readonly names: ReadonlySet<string> | undefined,
    /** Most bytes to inflate; undefined: not inflated at all (the raw name pass still sees it). */
    private readonly cap: number | undefined,
    private readonly scanner: PdfNameScanner,
  ) {}

  get produced(): number {
    return this.inflater?.bytesProduced ?? 0;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.inflater) await this.inflater.write(bytes);
    if (this.inflater || this.plain) return;
    this.head = concat(this.head, bytes);
    if (this.head.length < 2) return;
    if (this.cap !== undefined && isZlibHeader(this.head[0]!, this.head[1]!)) {
      this.inflater = new BoundedInflater("deflate", this.cap, (output) => this.scanner.push(output));
      await this.inflater.write(this.head);
    } else {
      this.plain = true;
    }
    this.head = new Uint8Array(0);
  }

  async end(): Promise<BodyOutcome> {
    if (!this.inflater) return "plain";
    const outcome = await this.inflater.finish();
    this.scanner.finish();
    return outcome;
  }
}

function objectStreamProblem(names: ReadonlySet<string> | undefined, outcome: BodyOutcome, limits: PdfInflationLimits): StreamProblem | undefined {
  const unreadable = (why: string): StreamProblem => ({ reason: "PDF_OBJECT_STREAM_UNREADABLE", message: `an object stream ${why}, so the objects in it cannot be checked` });
  if (names === undefined) return unreadable(`has a dictionary longer than ${DICTIONARY_WINDOW} bytes`);
  const other = [...names].find((name) => UNREADABLE.has(name));
  if (other) return unreadable(`is encoded with /${other}`);
  if (outcome === "over-limit") {
    return {
      reason: "PDF_INFLATION_TOO_LARGE",
      message: `object streams inflate beyond ${limits.maxObjectStreamBytes} bytes each or ${limits.maxFileBytes} bytes together`,
    };
  }
  if (outcome === "corrupt") return unreadable("holds corrupt or truncated compressed data");
  if (outcome === "plain" && [...names].some((name) => FLATE.has(name) || name === "Filter")) return unreadable("is compressed without a zlib header");
  return undefined;
}

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** First index of `word` at or after `from`; the first byte is found with a native search. */
function indexOfWord(bytes: Uint8Array, word: Uint8Array, from: number): number {
  for (let at = bytes.indexOf(word[0]!, from); at >= 0 && at + word.length <= bytes.length; at = bytes.indexOf(word[0]!, at + 1)) {
    if (matches(bytes, at, word)) return at;
  }
  return -1;
}

function lastIndexOfWord(bytes: Uint8Array, word: Uint8Array): number {
  for (let at = bytes.lastIndexOf(word[0]!); at >= 0; at = at > 0 ? bytes.lastIndexOf(word[0]!, at - 1) : -1) {
    if (matches(bytes, at, word)) return at;
  }
  return -1;
}

function matches(bytes: Uint8Array, at: number, word: Uint8Array): boolean {
  if (at + word.length > bytes.length) return false;
  for (let i = 0; i < word.length; i++) if (bytes[at + i] !== word[i]) return false;
  return true;
}
