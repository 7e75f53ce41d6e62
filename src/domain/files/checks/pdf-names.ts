/** PDF name syntax (PDF 32000-1, 7.3.5), read as a viewer reads it. */

/** Longer names are not among those looked for; their bytes are not kept. */
export const MAX_NAME_BYTES = 64;

export const SOLIDUS = 0x2f;
const HASH = 0x23;

/** Whitespace and delimiters end a name (7.2.2); a table, as every byte is looked up. */
export const ENDS_NAME = new Uint8Array(256);
for (const byte of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]) ENDS_NAME[byte] = 1;

/** A name's bytes (after the `/`) with `#xx` escapes decoded: `J#61vaScript` is `JavaScript`. */
export function decodeName(bytes: ArrayLike<number>): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    const hex = bytes[i] === HASH ? String.fromCharCode(bytes[i + 1] ?? 0, bytes[i + 2] ?? 0) : "";
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      out += String.fromCharCode(parseInt(hex, 16));
      i += 2;
    } else {
      out += String.fromCharCode(bytes[i]);
    }
  }
  return out;
}

/** Every name in `bytes` (a stream's dictionary, say), decoded; names longer than the cap are cut. */
export function namesIn(bytes: Uint8Array): Set<string> {
  const names = new Set<string>();
  let at = bytes.indexOf(SOLIDUS);
  while (at >= 0) {
    let end = at + 1;
    while (end < bytes.length && ENDS_NAME[bytes[end]!] === 0) end++;
    names.add(decodeName(bytes.subarray(at + 1, Math.min(end, at + 1 + MAX_NAME_BYTES))));
    at = bytes.indexOf(SOLIDUS, end);
  }
  return names;
}
