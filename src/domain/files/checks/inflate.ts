import { broken, ok, type Parsed } from "./parsed.js";

/**
 * Inflates `data` ("deflate" is zlib-wrapped, as in PNG; "deflate-raw" is ZIP's method 8) but
 * stops once the output passes `maxBytes`, so a small bomb never expands in memory. With
 * `prefix`, the first `maxBytes` of the output are the answer (the input may be cut short).
 */
export async function inflateBounded(
  data: Uint8Array,
  format: "deflate" | "deflate-raw",
  maxBytes: number,
  prefix = false,
): Promise<Parsed<Uint8Array>> {
  const reader = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream(format)).getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      parts.push(value);
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        if (!prefix) return broken(`expands beyond ${maxBytes} bytes`);
        break;
      }
    }
  } catch {
    if (!prefix || total === 0) return broken("the compressed data is corrupt");
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return ok(prefix ? out.subarray(0, maxBytes) : out);
}
