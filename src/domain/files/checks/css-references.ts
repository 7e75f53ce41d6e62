/**
 * The URLs a piece of CSS would fetch, and whether it contains script-like constructs. Used for
 * `<style>` elements and for every attribute value (presentation attributes such as `fill` and
 * `filter` take `url(...)` too).
 */
export interface CssScan {
  urls: string[];
  /** `@import` always fetches, so its presence alone is an external reference. */
  hasImport: boolean;
  /** Legacy CSS code execution: IE `expression()`, `behavior:`, Mozilla `-moz-binding`. */
  hasScript: boolean;
}

const URL_FUNCTION = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*?))\s*\)/g;
const IMAGE_SET = /image-set\(([^)]*)\)/g;
const QUOTED = /"([^"]*)"|'([^']*)'/g;
const SCRIPT_LIKE = /expression\s*\(|behavior\s*:|-moz-binding/;

export function scanCss(css: string): CssScan {
  const text = decodeCssEscapes(stripComments(css)).toLowerCase();
  const urls: string[] = [];
  for (const match of text.matchAll(URL_FUNCTION)) urls.push(match[1] ?? match[2] ?? match[3] ?? "");
  // image-set("a.png" 1x) fetches bare strings, without url().
  for (const set of text.matchAll(IMAGE_SET)) {
    for (const quoted of set[1].matchAll(QUOTED)) urls.push(quoted[1] ?? quoted[2] ?? "");
  }
  return { urls, hasImport: text.includes("@import"), hasScript: SCRIPT_LIKE.test(text) };
}

/** Comments can split a keyword (`ur/**\/l(`) in some parsers; remove them first. */
function stripComments(css: string): string {
  return css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, "");
}

/** CSS escapes (`\75 rl(`, `\@import`) must not hide a keyword from the patterns above. */
function decodeCssEscapes(css: string): string {
  return css.replace(/\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?|\\([\s\S])/g, (_match, hex: string | undefined, char: string | undefined) => {
    if (hex === undefined) return char ?? "";
    const codePoint = Number.parseInt(hex, 16);
    return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : "\ufffd";
  });
}
