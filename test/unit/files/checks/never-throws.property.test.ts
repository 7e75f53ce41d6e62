import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONTENT_TYPES } from "../../../../src/domain/files/checks/content-types.js";
import { scanFile, type ScanOutcome } from "../../../../src/domain/files/checks/scanner.js";
import { bufferSource, csv, jpeg, pdf, png, svg, webp, xls, xlsx } from "../../../fixtures/files/index.js";

const declaredTypes = fc.constantFrom(...Object.values(CONTENT_TYPES), "image/jpg", "text/csv; charset=utf-8", "application/octet-stream");

/** Valid files to mutate: mutations reach deep into the parsers, random bytes rarely do. */
const seeds = [
  png(4, 4),
  jpeg(16, 16, { exifBytes: 100 }),
  webp(4, 4, { format: "VP8X" }),
  webp(4, 4, { format: "VP8" }),
  svg('<a href="#x"><text>hi</text></a>'),
  pdf(),
  csv([["a", "b"], ["1", '"2"']]),
  xls(),
  xlsx(),
];

const mutatedSeed = fc
  .record({
    seed: fc.constantFrom(...seeds),
    flips: fc.array(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }), { maxLength: 8 }),
    cut: fc.option(fc.nat(), { nil: undefined }),
  })
  .map(({ seed, flips, cut }) => {
    const bytes = seed.slice(0, cut === undefined ? seed.length : cut % (seed.length + 1));
    for (const { at, value } of flips) if (bytes.length > 0) bytes[at % bytes.length] = value;
    return bytes;
  });

function expectWellFormed(outcome: ScanOutcome): void {
  expect(outcome.checks.length).toBeGreaterThan(0);
  expect(outcome.checks[0].name).toBe("magic_bytes");
  for (const check of outcome.checks) {
    expect(check.passed ? check.reason : typeof check.reason).toBe(check.passed ? undefined : "string");
    // A crash inside a check would fail safe, but it would still be a bug in the parser.
    expect(check.reason).not.toBe("INTERNAL_CHECK_ERROR");
  }
  expect(outcome.passed).toBe(outcome.checks.every((check) => check.passed));
}

describe("scanFile never throws on content", () => {
  it("for arbitrary bytes declared as any type", async () => {
    await fc.assert(
      fc.asyncProperty(declaredTypes, fc.uint8Array({ maxLength: 2048 }), async (type, bytes) => {
        expectWellFormed(await scanFile(type, bufferSource(bytes, { chunkSize: 97 })));
      }),
      { numRuns: 400 },
    );
  });

  it("for mutated and truncated valid files declared as any type", async () => {
    await fc.assert(
      fc.asyncProperty(declaredTypes, mutatedSeed, async (type, bytes) => {
        expectWellFormed(await scanFile(type, bufferSource(bytes, { chunkSize: 61 })));
      }),
      { numRuns: 600 },
    );
  });
});
