/**
 * re2-wasm as browsers get it: package.json's `browser` field maps the `re2-wasm` import of
 * pattern.ts here, so a browser bundle (the fields client, the demo page) checks `pattern` with
 * the same domain code as the server. re2-wasm itself cannot serve there: it instantiates its
 * WebAssembly synchronously at import, which a page's main thread refuses, and outside Node its
 * glue exports no engine. Node keeps re2-wasm.
 *
 * The engine is re2js, a pure-JavaScript port of RE2 (linear-time too). Only what pattern.ts uses
 * is provided: `new RE2(pattern, "u")`, throwing a SyntaxError on what RE2 refuses, and `test`.
 * To refuse and match as re2-wasm does, the pattern is first rewritten exactly as re2-wasm
 * rewrites it (its quirks included), and what re2js accepts beyond re2-wasm's RE2 is refused:
 * Unicode property names it does not know (Unicode 13 tables; re2js has 17 and binary
 * properties). `\C` (one byte of UTF-8) is refused here and, at save, by pattern.ts too. Left:
 * characters assigned after Unicode 13 may fall into a class here and not on the server.
 * test/unit/customfields/re2-browser-parity.test.ts compares the two.
 */
import { RE2JS } from "re2js";

export class RE2 {
  readonly #program: RE2JS;

  constructor(pattern: string, flags = "") {
    if (!flags.includes("u")) {
      throw new Error('RE2 only works in unicode mode. The "u" flag must be passed when constructing a RE2 instance');
    }
    this.#program = compileAsRe2Wasm(pattern, flags);
  }

  /** Unanchored search, like RegExp.prototype.test. */
  test(input: string): boolean {
    return this.#program.test(input);
  }
}

/**
 * The re2js program for what re2-wasm would compile from `pattern`, or a SyntaxError where
 * re2-wasm refuses it. pattern-program.ts reads its instructions to bound re2-wasm's program.
 */
export function compileAsRe2Wasm(pattern: string, flags = "u"): RE2JS {
  const source = escapeSlashes(pattern === "" ? "(?:)" : pattern);
  try {
    refuseWhatRe2WasmRefuses(source);
    return RE2JS.compile(translate(source));
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : String(error);
    throw new SyntaxError(`Invalid regular expression: /${source}/${flags}: ${detail}`);
  }
}

/** re2-wasm's escapeRegExp: every `/` ends up after an odd number of backslashes. */
function escapeSlashes(pattern: string): string {
  return pattern.replace(/(^|[^\\])((?:\\\\)*)\//g, "$1$2\\/");
}

const HEX = "0123456789ABCDEF";

/**
 * re2-wasm's translateRegExp (JavaScript syntax to RE2's), step for step: `\uXXXX` and `\u{...}`
 * become `\x{...}`, `\cX` a `\x` escape, `/` is escaped, `(?<name>` becomes `(?P<name>`. Its `\c`
 * turns any following character into `\x00` but A-Z; kept, since the server does so.
 */
function translate(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; ) {
    const char = pattern[i]!;
    const next = pattern[i + 1];
    if (char === "\\" && next !== undefined) {
      const [text, length] = translateEscape(pattern, i);
      out += text;
      i += length;
    } else if (char === "/") {
      out += "\\/";
      i += 1;
    } else if (pattern.startsWith("(?<", i) && pattern[i + 3] !== "=" && pattern[i + 3] !== "!") {
      out += "(?P<";
      i += 3;
    } else {
      out += char;
      i += 1;
    }
  }
  return out;
}

/** The RE2 text for the escape at `at`, and how many characters of the pattern it consumed. */
function translateEscape(pattern: string, at: number): [string, number] {
  const kind = pattern[at + 1]!;
  const third = pattern[at + 2];
  if (kind === "c" && third !== undefined) {
    const code = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".indexOf(third) + 1;
    return [`\\x${HEX[Math.floor(code / 16)]}${HEX[code % 16]}`, 3];
  }
  if (kind === "u" && third !== undefined && isHex(third)) {
    let digits = third;
    while (digits.length < 4 && isHex(pattern[at + 2 + digits.length])) digits += pattern[at + 2 + digits.length];
    return [`\\x{${digits}}`, 2 + digits.length];
  }
  if (kind === "u" && third === "{") return ["\\x", 2];
  return [`\\${kind}`, 2];
}

function isHex(char: string | undefined): boolean {
  return char !== undefined && char.length === 1 && HEX.includes(char.toUpperCase());
}

/**
 * Property names re2js accepts and re2-wasm's RE2 does not: binary properties, its own aliases,
 * and the scripts of Unicode 14 to 17.
 */
const UNKNOWN_TO_RE2_WASM = new Set(
  [
    "Cn LC Lc Ascii Assigned Unknown",
    "ASCII_Hex_Digit Alphabetic Dash Emoji Emoji_Component Emoji_Modifier Emoji_Modifier_Base",
    "Emoji_Presentation Extended_Pictographic Hex_Digit Lowercase Math Quotation_Mark",
    "Terminal_Punctuation Uppercase White_Space",
    "Beria_Erfe Cypro_Minoan Garay Gurung_Khema Kawi Kirat_Rai Nag_Mundari Ol_Onal Old_Uyghur",
    "Sidetic Sunuwar Tai_Yo Tangsa Todhri Tolong_Siki Toto Tulu_Tigalari Vithkuqi",
  ].flatMap((line) => line.split(" ")),
);

/** Throws on `\p{...}` naming one of those, and on `\C`, outside `\Q...\E` literals. */
function refuseWhatRe2WasmRefuses(pattern: string): void {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== "\\") continue;
    const kind = pattern[++i];
    if (kind === "Q") {
      const end = pattern.indexOf("\\E", i);
      i = end < 0 ? pattern.length : end + 1;
    } else if (kind === "C") {
      throw new Error("invalid escape sequence: \\C (one byte of UTF-8 is not matched in browsers)");
    } else if ((kind === "p" || kind === "P") && pattern[i + 1] === "{") {
      // Without its "}" the class is a syntax error re2js reports itself.
      const close = pattern.indexOf("}", i);
      const name = close < 0 ? "" : pattern.slice(i + 2, close).replace(/^\^/, "");
      if (UNKNOWN_TO_RE2_WASM.has(name)) throw new Error(`invalid character class range: \\${kind}{${name}}`);
    }
  }
}
