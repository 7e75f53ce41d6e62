/**
 * Whether a string is longer than a bound, counted as protovalidate counts (code points for
 * `len`, UTF-8 bytes for `bytes`), reading no more of it than the bound needs: a 1 MiB string
 * against a 64-character bound is decided from its UTF-16 length alone.
 */

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit < 0xdc00;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit < 0xe000;

/** More than `max` code points (a surrogate pair is one, a lone surrogate one too). */
export function codePointsExceed(text: string, max: number): boolean {
  // A code point takes one or two UTF-16 units: length/2 <= code points <= length.
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    if (isHighSurrogate(text.charCodeAt(i)) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) i++;
    if (++count > max) return true;
  }
  return false;
}

/** More than `max` bytes once encoded as UTF-8 (a lone surrogate as U+FFFD, 3 bytes). */
export function utf8BytesExceed(text: string, max: number): boolean {
  // Every UTF-16 unit takes at least one byte and at most three (a pair takes four for two).
  if (text.length > max) return true;
  if (text.length * 3 <= max) return false;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (isHighSurrogate(unit) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
    if (bytes > max) return true;
  }
  return false;
}
