/**
 * parseNumberText: the language of the decimal regular expression it replaced, read in linear
 * time. The reference below is that expression; it stays here, where inputs are short.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNumberText } from "../../../src/domain/customfields/scalars.js";

// eslint-disable-next-line regexp/no-super-linear-backtracking -- the reference, only run on short test inputs
const REFERENCE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function reference(text: string): number | undefined {
  const trimmed = text.trim();
  if (!REFERENCE.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/** CPU time of the event loop's thread: other processes on the machine do not count. */
function threadCpuMs(run: () => void): number {
  const before = process.threadCpuUsage();
  run();
  const { user, system } = process.threadCpuUsage(before);
  return (user + system) / 1000;
}

describe("parseNumberText", () => {
  it.each(["0", "-1", "+1.5", "1.", ".5", "1e3", "1.E-3", ".5e+2", " 42 ", "007"])("reads %j as Number() does", (text) => {
    expect(parseNumberText(text)).toBe(Number(text));
  });

  it.each(["", " ", ".", "+", "-.", "1e", "1e+", "e1", ".e1", "1..2", "1.2.3", "0x10", "Infinity", "1_000", "1 2", "٣", "1e400", "--1"])("refuses %j", (text) => {
    expect(parseNumberText(text)).toBeUndefined();
  });

  it("accepts exactly what the decimal regular expression accepts", () => {
    const alphabet = fc.constantFrom("0", "1", "9", ".", "+", "-", "e", "E", " ", "\t", "\n", "x", "٣", "\u00a0");
    const text = fc.oneof(fc.string({ unit: alphabet, maxLength: 12 }), fc.stringMatching(/^[+-]?\d{0,5}\.?\d{0,5}(?:[eE][+-]?\d{0,3})?$/), fc.string({ maxLength: 8 }));
    fc.assert(
      fc.property(text, (t) => {
        expect(parseNumberText(t)).toBe(reference(t));
      }),
      { numRuns: 20_000 },
    );
  });

  it("refuses 80,000 digits and a bad tail, and a 1 MiB number, in linear time", () => {
    // The decimal regular expression took seconds on the first (and minutes on the second).
    for (const text of [`${"1".repeat(80_000)}x`, `-.${"1".repeat(80_000)}e+`, `${"1".repeat(1_048_576)}x`, `1.${"1".repeat(1_048_576)}e1x`]) {
      let parsed: number | undefined = 0;
      expect(threadCpuMs(() => (parsed = parseNumberText(text)))).toBeLessThan(100);
      expect(parsed).toBeUndefined();
    }
    expect(parseNumberText("1".repeat(1_048_576))).toBeUndefined(); // too large to be finite
    expect(parseNumberText(`0.${"1".repeat(1_048_576)}`)).toBeCloseTo(0.111111111, 8);
  });
});
