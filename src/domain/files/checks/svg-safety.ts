import type { ByteSource } from "./byte-source.js";
import { failed, passed, type CheckResult } from "./check-result.js";
import { SvgInspector } from "./svg-inspector.js";

/** Default size limit for SVG: a logo has no business being larger, and parsing is linear in size. */
export const DEFAULT_MAX_SVG_BYTES = 5 * 1024 * 1024;

const NAME = "svg_safety";

/**
 * Streams the whole SVG through a strict XML parser and the safety rules. Any parse error
 * rejects: a document our parser reads differently from a browser is a document we cannot vouch
 * for. Stops reading at the first violation.
 */
export async function checkSvgSafety(source: ByteSource, maxBytes = DEFAULT_MAX_SVG_BYTES): Promise<CheckResult> {
  if (source.size > maxBytes) return tooLarge(source.size, maxBytes);
  const inspector = new SvgInspector();
  // Fatal: invalid UTF-8 is a parse error, never silently replaced (U+FFFD could mask a keyword).
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let seen = 0;
  for await (const chunk of source.stream()) {
    seen += chunk.length;
    if (seen > maxBytes) return tooLarge(seen, maxBytes);
    const text = decode(decoder, chunk);
    if (text === undefined) return invalidUtf8();
    inspector.write(text);
    if (inspector.failure) return inspector.failure;
  }
  const rest = decode(decoder);
  if (rest === undefined) return invalidUtf8();
  inspector.write(rest);
  inspector.close();
  return inspector.failure ?? passed(NAME);
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
