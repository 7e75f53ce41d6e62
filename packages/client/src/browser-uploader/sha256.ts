/** Base64 SHA-256 of a part through Web Crypto; undefined where there is none (no secure context). */
export const webCryptoSha256: ((part: Blob) => Promise<string>) | undefined = globalThis.crypto?.subtle
  ? async (part) => {
      const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", await part.arrayBuffer()));
      return btoa(String.fromCharCode(...digest));
    }
  : undefined;
