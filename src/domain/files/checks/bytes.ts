/**
 * Reading numbers and signatures out of byte arrays. Every reader tolerates short input (returns
 * undefined or false) because hostile files are routinely shorter than the structure they claim.
 */

export function u16be(bytes: Uint8Array, at: number): number | undefined {
  if (at < 0 || at + 2 > bytes.length) return undefined;
  return (bytes[at] << 8) | bytes[at + 1];
}

export function u16le(bytes: Uint8Array, at: number): number | undefined {
  if (at < 0 || at + 2 > bytes.length) return undefined;
  return bytes[at] | (bytes[at + 1] << 8);
}

export function u24le(bytes: Uint8Array, at: number): number | undefined {
  if (at < 0 || at + 3 > bytes.length) return undefined;
  return bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
}

/** Unsigned: `>>> 0` keeps values above 2^31 positive. */
export function u32be(bytes: Uint8Array, at: number): number | undefined {
  if (at < 0 || at + 4 > bytes.length) return undefined;
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

export function u32le(bytes: Uint8Array, at: number): number | undefined {
  if (at < 0 || at + 4 > bytes.length) return undefined;
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
}

/** 64-bit little-endian, or undefined when it does not fit a safe JavaScript integer. */
export function u64le(bytes: Uint8Array, at: number): number | undefined {
  const low = u32le(bytes, at);
  const high = u32le(bytes, at + 4);
  if (low === undefined || high === undefined) return undefined;
  const value = high * 2 ** 32 + low;
  return Number.isSafeInteger(value) ? value : undefined;
}

/** Does `bytes` hold `signature` at `at`? Numbers are bytes; a string is ASCII. */
export function hasBytesAt(bytes: Uint8Array, at: number, signature: readonly number[] | string): boolean {
  const expected = typeof signature === "string" ? ascii(signature) : signature;
  if (at < 0 || at + expected.length > bytes.length) return false;
  for (let i = 0; i < expected.length; i++) {
    if (bytes[at + i] !== expected[i]) return false;
  }
  return true;
}

/** First index of `needle` in `haystack` at or after `from`, or -1. */
export function indexOfBytes(haystack: Uint8Array, needle: readonly number[] | string, from = 0): number {
  const expected = typeof needle === "string" ? ascii(needle) : needle;
  for (let i = Math.max(0, from); i + expected.length <= haystack.length; i++) {
    if (hasBytesAt(haystack, i, expected)) return i;
  }
  return -1;
}

export function ascii(text: string): number[] {
  return Array.from(text, (char) => char.charCodeAt(0));
}
