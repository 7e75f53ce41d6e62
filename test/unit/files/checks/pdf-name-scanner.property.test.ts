import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PdfNameScanner } from "../../../../src/domain/files/checks/pdf-name-scanner.js";

/** The names scanned for, escaped or not, among bytes that often end or start names. */
const piece = fc.oneof(
  fc.constantFrom("/JS", "/JavaScript", "/J#61vaScript", "/Launch", "/EmbeddedFile", "/Type", "/", "//", " ", "(", "#", "%"),
  fc.uint8Array({ maxLength: 40 }).map((bytes) => String.fromCharCode(...bytes)),
);

function found(chunks: Uint8Array[]): string[] {
  const scanner = new PdfNameScanner();
  for (const chunk of chunks) scanner.push(chunk);
  return [...scanner.finish()].sort();
}

/** The same bytes cut at arbitrary points: names split across chunks are still found. */
function cut(bytes: Uint8Array, points: number[]): Uint8Array[] {
  const ends = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const end of [...ends, bytes.length]) {
    chunks.push(bytes.subarray(from, end));
    from = end;
  }
  return chunks;
}

/** The reference: a name is `/` and what follows up to whitespace or a delimiter. */
function reference(text: string): string[] {
  const kinds = new Map([["JS", "javascript"], ["JavaScript", "javascript"], ["Launch", "launch"], ["EmbeddedFile", "embedded"], ["EmbeddedFiles", "embedded"]]);
  const out = new Set<string>();
  for (const match of text.matchAll(/\/([^\x00\t\n\f\r ()<>[\]{}/%]*)/g)) {
    const raw = match[1]!.slice(0, 64);
    const name = raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    const kind = kinds.get(name);
    if (kind) out.add(kind);
  }
  return [...out].sort();
}

describe("PdfNameScanner", () => {
  it("finds the same names however the bytes are chunked, and as a plain reading of the syntax does", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), (pieces, points) => {
        const text = pieces.join("");
        const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
        expect(found(cut(bytes, points))).toEqual(found([bytes]));
        expect(found([bytes])).toEqual(reference(text));
      }),
      { numRuns: 500 },
    );
  });
});
