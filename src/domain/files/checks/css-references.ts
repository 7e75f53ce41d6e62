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

const SCRIPT_LIKE = /expression\s*\(|behavior\s*:|-moz-binding/;
const QUOTED = /"([^"]*)"|'([^']*)'/g;
const WHITESPACE = /\s/;

/**
 * Every pass below is linear in the length of the CSS, whatever it holds: hostile attribute values
 * and style sheets run to megabytes, and a backtracking pattern such as `url\(\s*([^)]*?)\s*\)`
 * costs cubic time on `url(` followed by spaces and no `)`.
 */
export function scanCss(css: string): CssScan {
  const text = decodeCssEscapes(stripComments(css)).toLowerCase();
  return { urls: [...urlTargets(text), ...imageSetTargets(text)], hasImport: text.includes("@import"), hasScript: SCRIPT_LIKE.test(text) };
}

/**
 * The target of each `url(...)`: a quoted string closed by `)`, otherwise everything up to `)`,
 * trimmed. An unclosed `url(` runs to the end of the text, which is how CSS reads it at the end of
 * a declaration, so it is still checked. Each search resumes after the previous target.
 */
function urlTargets(text: string): string[] {
  const urls: string[] = [];
  for (let at = text.indexOf("url("); at !== -1; at = text.indexOf("url(", at)) {
    const start = skipWhitespace(text, at + 4);
    const quoted = quotedArgument(text, start);
    const afterQuote = quoted ? skipWhitespace(text, quoted.end) : -1;
    if (quoted && (afterQuote === text.length || text[afterQuote] === ")")) {
      urls.push(quoted.value);
      at = afterQuote;
    } else {
      const close = closingParenthesis(text, start);
      urls.push(text.slice(start, close).trim());
      at = close;
    }
  }
  return urls;
}

/** `image-set("a.png" 1x)` fetches bare strings, without url(). */
function imageSetTargets(text: string): string[] {
  const urls: string[] = [];
  for (let at = text.indexOf("image-set("); at !== -1; at = text.indexOf("image-set(", at)) {
    const start = at + "image-set(".length;
    const close = closingParenthesis(text, start);
    for (const quoted of text.slice(start, close).matchAll(QUOTED)) urls.push(quoted[1] ?? quoted[2] ?? "");
    at = close;
  }
  return urls;
}

/** A string starting at `start` ("..." or '...'), its value and the index just past its closing quote. */
function quotedArgument(text: string, start: number): { value: string; end: number } | undefined {
  const quote = text[start];
  if (quote !== '"' && quote !== "'") return undefined;
  const close = text.indexOf(quote, start + 1);
  if (close === -1) return undefined;
  return { value: text.slice(start + 1, close), end: close + 1 };
}

function closingParenthesis(text: string, from: number): number {
  const close = text.indexOf(")", from);
  return close === -1 ? text.length : close;
}

function skipWhitespace(text: string, from: number): number {
  let at = from;
  while (at < text.length && WHITESPACE.test(text[at])) at++;
  return at;
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
