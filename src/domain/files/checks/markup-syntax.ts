/** Character classes and small matchers of HTML's syntax, for ActiveMarkupScanner. */

/**
 * One step of matching `phrase` case-insensitively, where a space stands for one or more
 * whitespace characters: the next position, "done" or "fail".
 */
export function matchPhrase(phrase: string, at: number, char: number): number | "done" | "fail" {
  const expected = phrase.charCodeAt(at);
  if (at > 0 && phrase.charCodeAt(at - 1) === 0x20 && isWhitespace(char)) return at;
  const matches = expected === 0x20 ? isWhitespace(char) : (isLetter(char) ? char | 0x20 : char) === expected;
  if (!matches) return "fail";
  return at + 1 === phrase.length ? "done" : at + 1;
}

export function isEventHandler(name: string): boolean {
  if (name.length < 3 || !name.startsWith("on")) return false;
  for (let i = 2; i < name.length; i++) if (!isLetter(name.charCodeAt(i))) return false;
  return true;
}

export function isLetter(char: number): boolean {
  const lower = char | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

/** Letters, digits, `-`, `_`, `.` and `:` (a namespace prefix). */
export function isNameChar(char: number): boolean {
  return isLetter(char) || (char >= 0x30 && char <= 0x39) || char === 0x2d || char === 0x5f || char === 0x2e || char === 0x3a;
}

/** HTML's whitespace: space, tab, LF, FF, CR. */
export function isWhitespace(char: number): boolean {
  return char === 0x20 || char === 0x09 || char === 0x0a || char === 0x0c || char === 0x0d;
}

/** C0 controls other than whitespace, and DEL: never in markup written to be run. */
export function isControl(char: number): boolean {
  return (char < 0x20 && !isWhitespace(char)) || char === 0x7f;
}
