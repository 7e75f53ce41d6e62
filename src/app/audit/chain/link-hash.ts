import { createHash } from "node:crypto";

/** SHA-256 of the previous hash's 32 bytes followed by the canonical text's UTF-8 bytes, as hex. */
export function linkHash(previousHash: string, canonical: string): string {
  return createHash("sha256").update(Buffer.from(previousHash, "hex")).update(canonical, "utf8").digest("hex");
}
