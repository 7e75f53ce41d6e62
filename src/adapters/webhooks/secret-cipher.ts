import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const FORMAT = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Names a key without revealing it: stored beside each ciphertext, so old keys can still decrypt. */
export function secretKeyId(key: Buffer): string {
  return createHash("sha256").update("webhook-secret-key-id").update(key).digest("hex").slice(0, 16);
}

/**
 * Webhook signing secrets at rest: AES-256-GCM as `v1.<key id>.<iv>.<ciphertext>.<tag>` (base64url).
 * The endpoint (`context`) is authenticated too, so a ciphertext copied onto another endpoint's
 * row does not decrypt. The current key encrypts; previous keys only decrypt, until every row was
 * written again (a rotation or a re-encryption).
 */
export class SecretCipher {
  private readonly keys: Map<string, Buffer>;
  private readonly currentId: string;

  constructor({ current, previous = [] }: { current: Buffer; previous?: readonly Buffer[] }) {
    for (const key of [current, ...previous]) if (key.length !== 32) throw new Error("an AES-256 key is 32 bytes");
    this.currentId = secretKeyId(current);
    this.keys = new Map([...previous, current].map((key) => [secretKeyId(key), key]));
  }

  encrypt(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.keys.get(this.currentId)!, iv).setAAD(Buffer.from(context));
    const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return [FORMAT, this.currentId, iv, data, cipher.getAuthTag()].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
  }

  /** Throws when the key is not configured or the ciphertext, its key or its endpoint do not match. */
  decrypt(stored: string, context: string): string {
    const [format, keyId, iv, data, tag, ...rest] = stored.split(".");
    if (format !== FORMAT || !keyId || iv === undefined || data === undefined || tag === undefined || rest.length > 0) {
      throw new Error("not an encrypted webhook secret");
    }
    const key = this.keys.get(keyId);
    if (!key) throw new Error(`webhook secret encrypted with key ${keyId}, which is not configured (in WEBHOOK_SECRET_KEYS or WEBHOOK_SECRET_PREVIOUS_KEYS)`);
    const tagBytes = Buffer.from(tag, "base64url");
    if (tagBytes.length !== TAG_BYTES) throw new Error("not an encrypted webhook secret");
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), { authTagLength: TAG_BYTES }).setAAD(Buffer.from(context));
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  }

  /** Whether a stored secret was encrypted with the current key (else it should be written again). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(this.currentPrefix().slice(0, -1));
  }

  /** A LIKE pattern of what the current key encrypted. */
  currentPrefix(): string {
    return `${FORMAT}.${this.currentId}.%`;
  }
}

/** What a secret is bound to: its endpoint, so rows cannot trade ciphertexts. */
export function secretContext(tenantId: string, endpointId: string): string {
  return `webhook-endpoint:${tenantId}/${endpointId}`;
}
