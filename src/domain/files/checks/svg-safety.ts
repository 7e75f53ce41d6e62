import type { ByteSource } from "./byte-source.js";
import { failed, passed, type CheckResult } from "./check-result.js";
import { NO_CHECKPOINT, type Checkpoint } from "./checkpoint.js";
import { SvgInspector, type SvgStructureLimits } from "./svg-inspector.js";

export interface SvgLimits extends SvgStructureLimits {
  /** Largest file, in bytes: a logo has no business being larger. */
  maxBytes: number;
}

export const DEFAULT_SVG_LIMITS: SvgLimits = { maxBytes: 5 * 1024 * 1024, maxDepth: 256, maxElements: 100_000, maxCssChars: 128 * 1024 };

/**
 * Bytes decoded and parsed between two checkpoints. The parse is linear, so a slice costs a few
 * milliseconds at most, whatever the chunks the source delivers (one chunk may be the whole file).
 */
const SLICE_BYTES = 64 * 1024;

const NAME = "svg_safety";

/**
 * Streams the whole SVG through a strict XML parser and the safety rules. Any parse error
 * rejects: a document our parser reads differently from a browser is a document we cannot vouch
 * for. Stops reading at the first violation. The work is linear in the size of the file, and the
 * checkpoint is awaited after every slice of it.
 */
export async function checkSvgSafety(source: ByteSource, limits: SvgLimits = DEFAULT_SVG_LIMITS, checkpoint = NO_CHECKPOINT): Promise<CheckResult> {
  if (source.size > limits.maxBytes) return tooLarge(source.size, limits.maxBytes);
  const inspector = new SvgInspector(limits);
  // Fatal: invalid UTF-8 is a parse error, never silently replaced (U+FFFD could mask a keyword).
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let seen = 0;
  for await (const chunk of source.stream()) {
    seen += chunk.length;
    if (seen > limits.maxBytes) return tooLarge(seen, limits.maxBytes);
    const failure = await inspectInSlices(inspector, decoder, chunk, checkpoint);
    if (failure) return failure;
  }
  const rest = decode(decoder);
  if (rest === undefined) return invalidUtf8();
  inspector.write(rest);
  inspector.close();
  return inspector.failure ?? passed(NAME);
}

/** Feeds one chunk to the parser a slice at a time (the decoder carries a split character over). */
async function inspectInSlices(inspector: SvgInspector, decoder: TextDecoder, chunk: Uint8Array, checkpoint: Checkpoint): Promise<CheckResult | undefined> {
  for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
    const text = decode(decoder, chunk.subarray(at, at + SLICE_BYTES));
    if (text === undefined) return invalidUtf8();
    inspector.write(text);
    if (inspector.failure) return inspector.failure;
    await checkpoint();
  }
  return undefined;
}

/** Decodes the next chunk (or flushes with none); undefined when the bytes are not UTF-8. */
function decode(decoder: TextDecoder, chunk?: Uint8Array): string | undefined {
  try {
    return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
  } catch {
    return undefined;
  }
}

function tooLarge(size: number, maxBytes: number): CheckResult {
  return failed(NAME, "SVG_TOO_LARGE", `${size} bytes exceeds the SVG limit of ${maxBytes} bytes`);
}

function invalidUtf8(): CheckResult {
  return failed(NAME, "SVG_PARSE_ERROR", "the file is not valid UTF-8");
}
