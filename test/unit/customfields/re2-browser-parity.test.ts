/**
 * Browsers check `validation.pattern` with re2-browser.ts (re2js) where the server runs re2-wasm:
 * both must refuse the same patterns at save and match the same values. Both engines run here in
 * Node, side by side. re2-wasm's side goes through checkPattern (which frees what RE2 refuses:
 * unit test files share one WebAssembly heap) and frees every program it compiles.
 */
import fc from "fast-check";
import { RE2 as WasmRE2 } from "re2-wasm";
import { describe, expect, it } from "vitest";
import { estimatePatternCost } from "../../../src/domain/customfields/pattern-cost.js";
import { checkPattern, DEFAULT_PATTERN_LIMITS } from "../../../src/domain/customfields/pattern.js";
import { RE2 as BrowserRE2 } from "../../../src/domain/customfields/re2-browser.js";

/** Only RE2 decides here: no length or cost bound in front of it. */
const ENGINE_ONLY = {
  ...DEFAULT_PATTERN_LIMITS,
  maxLength: Number.MAX_SAFE_INTEGER,
  maxCompileBytes: Number.MAX_SAFE_INTEGER,
  maxProgramSize: Number.MAX_SAFE_INTEGER,
};

function serverAccepts(pattern: string): boolean {
  try {
    checkPattern(pattern, ENGINE_ONLY);
    return true;
  } catch {
    return false;
  }
}

function browserAccepts(pattern: string): boolean {
  try {
    new BrowserRE2(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/** re2-wasm's answer for every value, its program freed after. */
function serverMatches(pattern: string, values: readonly string[]): boolean[] {
  const regex = new WasmRE2(pattern, "u");
  try {
    return values.map((value) => regex.test(value));
  } finally {
    (regex as unknown as { wrapper: { delete(): void } }).wrapper.delete();
  }
}

function browserMatches(pattern: string, values: readonly string[]): boolean[] {
  const regex = new BrowserRE2(pattern, "u");
  return values.map((value) => regex.test(value));
}

/** The same verdict at compile and, when accepted, the same answer for every value. */
function expectSameVerdict(pattern: string, values: readonly string[]): { accepted: boolean; matches: boolean[] } {
  const accepted = serverAccepts(pattern);
  expect(browserAccepts(pattern), `accepted by re2-wasm: ${accepted}, pattern ${JSON.stringify(pattern)}`).toBe(accepted);
  if (!accepted) return { accepted, matches: [] };
  const matches = serverMatches(pattern, values);
  expect(browserMatches(pattern, values), `pattern ${JSON.stringify(pattern)} on ${JSON.stringify(values)}`).toEqual(matches);
  return { accepted, matches };
}

/** What tenants write, what JavaScript's u-mode and RE2 read differently, and what RE2 refuses. */
const CORPUS = [
  "^[A-Z]{2}-\\d{4}$", "\\p{Lu}", "^\\p{L}+$", "^\\P{L}*$", "\\pL", "\\pN", "\\p{Greek}", "\\p{^Greek}", "\\p{Han}", "\\p{Nd}",
  "\\p{Any}", "[^\\p{L}\\d]", "^\\w+@\\w+\\.\\w{2,}$", "^\\S+$", "\\s", "\\D", "\\W", "^\\d{3,5}$", "^a{2,}$", "^a{,3}$",
  "^(?:ab|cd)+$", "^(?<code>[A-Z]{3})-(?<n>\\d+)$", "(?P<x>a)", "^a\\.b$", "^a\\/b$", "a/b", "^a\\-b$", "[\\-_]", "[a\\]]",
  "[\\/]", "^\\x41\\x{42}$", "^\\u0041$", "^\\u{1F600}$", "\\u00e9", "\\u00411", "\\cA", "\\c1", "\\ca", "\\c", "\\u", "\\uZ",
  "\\Qa.b\\E", "\\Q\\p{Emoji}\\E", "[[:alpha:]]+", "(?i)straße", "(?i)^k$", "(?s)^.$", "^.$", "\\bword\\b", "\\Ba", "\\Aa\\z",
  "a*?", "", "(?:)", "a|", "()", "[a&&b]", "\\@", "\\_", "\\ ", "\\%", "\\0", "\\07", "\\v", "\\x{10FFFF}", "[\\d-x]",
  // RE2 refuses these: backreferences, lookaround, Perl extras, syntax errors, oversized repeats.
  "(a)\\1", "\\k<n>", "(?=a)b", "(?!a)b", "(?<=a)b", "(?<!a)b", "(?#c)", "(?x) a", "(?<n>a)(?<n>b)", "\\Z", "\\e", "\\8",
  "\\h", "\\R", "\\X", "\\G", "\\y", "[\\b]", "a**", "a++", "a{2}{3}", "(", ")", "[", "[a-", "[z-a]", "a{1001}",
  "(x{1000}){1000}", "(a{30}){40}", "\\", "\\p{Foo}", "\\p{Letter}", "\\p{Script=Greek}", "\\p{L",
  // re2js knows these property names and scripts, re2-wasm's RE2 (Unicode 13) does not.
  "\\p{Emoji}", "\\P{White_Space}", "\\p{^Alphabetic}", "\\p{Cn}", "\\p{LC}", "\\p{Lc}", "\\p{Ascii}", "\\p{Assigned}",
  "\\p{Unknown}", "\\p{Kawi}", "\\p{Toto}", "[\\p{Vithkuqi}a]",
];

/** Characters assigned by Unicode 13: newer ones may fall in a class on one side only. */
const CHARS = ["a", "b", "A", "Z", "k", "K", "\u212A", "0", "7", "-", "_", ".", "/", "@", " ", "\t", "\n", "é", "É", "ß", "ẞ", "Σ", "σ", "ς", "日", "😀", "\u0000", "\u00A0"];
const VALUES = ["", "a", "DE-1234", "de-1234", "ABC-12", "a.b", "a/b", "a-b", "word", "swords", "héllo", "Straße", "STRASSE", "k", "\u212A", "A", "B", "\u0001", "é", "😀", "日本", "αβγ", "a\nb", "ab\n", "x@y.io", "12345", "aaa", " ", "_"];

describe("browser pattern engine (re2js) against re2-wasm", () => {
  it("refuses and matches as re2-wasm does on a corpus of patterns and values", () => {
    const verdicts = CORPUS.map((pattern) => expectSameVerdict(pattern, VALUES));
    // The corpus must exercise both sides of each question, or it proves nothing.
    expect(verdicts.filter((v) => v.accepted).length).toBeGreaterThan(40);
    expect(verdicts.filter((v) => !v.accepted).length).toBeGreaterThan(40);
    expect(verdicts.flatMap((v) => v.matches)).toContain(true);
    expect(verdicts.flatMap((v) => v.matches)).toContain(false);
  });

  it.each(["(a)\\1", "(?=a)", "(?!a)", "(?<=a)b", "(?<!a)b", "\\k<n>"])("refuses %s in the browser", (pattern) => {
    expect(() => new BrowserRE2(pattern, "u")).toThrow(SyntaxError);
  });

  it("names the refused pattern and RE2's reason, as re2-wasm does", () => {
    expect(() => new BrowserRE2("(?=a)b", "u")).toThrow(/^Invalid regular expression: \/\(\?=a\)b\/u: .*\(\?=/);
    expect(() => new BrowserRE2("\\p{Emoji}", "u")).toThrow("Invalid regular expression: /\\p{Emoji}/u: invalid character class range: \\p{Emoji}");
  });

  it("refuses \\C (one byte of UTF-8) on both sides: the server refuses it at save, as no browser engine has it", () => {
    expect(serverAccepts("a\\C")).toBe(false);
    expect(browserAccepts("a\\C")).toBe(false);
    expect(serverAccepts("a\\\\C")).toBe(true);
    expect(browserAccepts("a\\\\C")).toBe(true);
  });

  it("requires unicode mode, like re2-wasm", () => {
    expect(() => new BrowserRE2("a", "")).toThrow(/unicode mode/);
    expect(() => new WasmRE2("a", "")).toThrow(/unicode mode/);
  });

  it("agrees on generated patterns a tenant could save", () => {
    const outcomes = { accepted: 0, refused: 0, matched: 0, missed: 0 };
    fc.assert(
      fc.property(patternArbitrary, fc.array(fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 8 }), { minLength: 1, maxLength: 12 }), (pattern, values) => {
        fc.pre(estimatePatternCost(pattern) <= DEFAULT_PATTERN_LIMITS.maxCompileBytes);
        const { accepted, matches } = expectSameVerdict(pattern, values);
        outcomes[accepted ? "accepted" : "refused"]++;
        for (const matched of matches) outcomes[matched ? "matched" : "missed"]++;
      }),
      { numRuns: 300 },
    );
    expect(Object.values(outcomes).every((count) => count > 10), JSON.stringify(outcomes)).toBe(true);
  }, 60_000);
});

/** Pattern text from the pieces tenants use, with a few pieces RE2 refuses mixed in. */
const atom = fc.constantFrom(
  "a", "b", "Z", "é", "ß", "Σ", "日", "😀", "0", "-", "_", " ", "/", ".", "@",
  "\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "\\.", "\\/", "\\-", "\\p{L}", "\\p{Lu}", "\\p{Ll}", "\\P{L}", "\\p{Greek}", "\\pN",
  "[a-z]", "[A-Z0-9]", "[^a-z]", "[\\d\\-]", "[\\w.]", "[é-ü]", "[\\p{L}_]", "[^\\s]", "\\b", "\\x41", "\\u00e9", "\\u{1F600}",
  "(?i)k", "\\cJ",
  // Refused by RE2, each in its own way.
  "\\1", "(?=a)", "[", "\\e", "\\p{Emoji}", "\\k<x>",
);
const quantifier = fc.constantFrom("", "", "", "*", "+", "?", "{2}", "{1,3}", "{2,}", "{0,2}", "*?", "+?", "{,2}", "{3,1}");

const patternArbitrary: fc.Arbitrary<string> = fc.letrec<{ pattern: string; term: string; group: string }>((tie) => ({
  pattern: fc
    .tuple(fc.boolean(), fc.array(tie("term"), { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([start, terms, end]) => `${start ? "^" : ""}${terms.join("|")}${end ? "$" : ""}`),
  term: fc.array(fc.oneof({ maxDepth: 2, depthIdentifier: "group" }, { weight: 4, arbitrary: fc.tuple(atom, quantifier).map(([a, q]) => a + q) }, { weight: 1, arbitrary: tie("group") }), { minLength: 1, maxLength: 4 }).map((parts) => parts.join("")),
  group: fc
    .tuple(fc.constantFrom("(", "(?:", "(?<g>", "(?P<h>"), tie("term"), fc.array(tie("term"), { maxLength: 1 }), quantifier)
    .map(([open, first, rest, q]) => `${open}${[first, ...rest].join("|")})${q}`),
})).pattern;
