/**
 * Webhook secrets at rest: AES-256-GCM bound to the endpoint, the key named beside the ciphertext
 * so a changed WEBHOOK_SECRET_KEY still decrypts (from WEBHOOK_SECRET_PREVIOUS_KEYS) what the old
 * key wrote, and nothing decrypts with a wrong key, another endpoint or a changed byte.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SecretCipher, secretContext, secretKeyId } from "../../../src/adapters/webhooks/secret-cipher.js";
import { ConfigError } from "../../../src/config/config-error.js";
import { parseWebhookSecretKeys } from "../../../src/config/webhook-secret-keys.js";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const context = secretContext("acme", "0196f0c8-0000-7000-8000-000000000001");
const key = () => randomBytes(32);

describe("SecretCipher", () => {
  it("round-trips, names the key, and never stores the secret or its base64", () => {
    const current = key();
    const cipher = new SecretCipher({ current });
    const stored = cipher.encrypt(SECRET, context);
    expect(stored.split(".")[0]).toBe("v1");
    expect(stored.split(".")[1]).toBe(secretKeyId(current));
    for (const leak of [SECRET, SECRET.slice(6), Buffer.from(SECRET).toString("base64")]) expect(stored).not.toContain(leak);
    expect(cipher.decrypt(stored, context)).toBe(SECRET);
    // A fresh IV each time: equal secrets do not give equal ciphertexts.
    expect(cipher.encrypt(SECRET, context)).not.toBe(stored);
  });

  it("refuses a wrong key, another endpoint's row, and a changed byte", () => {
    const stored = new SecretCipher({ current: key() }).encrypt(SECRET, context);
    expect(() => new SecretCipher({ current: key() }).decrypt(stored, context)).toThrow(/not configured/);
    const cipher = new SecretCipher({ current: key() });
    const own = cipher.encrypt(SECRET, context);
    expect(() => cipher.decrypt(own, secretContext("acme", "0196f0c8-0000-7000-8000-000000000002"))).toThrow();
    expect(() => cipher.decrypt(own, secretContext("other", "0196f0c8-0000-7000-8000-000000000001"))).toThrow();
    const parts = own.split(".");
    const data = Buffer.from(parts[3]!, "base64url");
    data[0] = data[0]! ^ 1;
    parts[3] = data.toString("base64url");
    expect(() => cipher.decrypt(parts.join("."), context)).toThrow();
    expect(() => cipher.decrypt(SECRET, context)).toThrow(/not an encrypted webhook secret/);
  });

  it("after a key change decrypts with the previous key, encrypts with the new one only", () => {
    const old = key();
    const stored = new SecretCipher({ current: old }).encrypt(SECRET, context);
    const rotated = new SecretCipher({ current: key(), previous: [old] });
    expect(rotated.decrypt(stored, context)).toBe(SECRET);
    expect(rotated.isCurrent(stored)).toBe(false);
    const again = rotated.encrypt(rotated.decrypt(stored, context), context);
    expect(rotated.isCurrent(again)).toBe(true);
    expect(() => new SecretCipher({ current: old }).decrypt(again, context)).toThrow(/not configured/);
  });
});

describe("WEBHOOK_SECRET_KEY", () => {
  const good = Buffer.alloc(32, 7).toString("base64");

  it("is required outside development mode, and derived (and flagged) in it", () => {
    expect(() => parseWebhookSecretKeys({}, false)).toThrow(ConfigError);
    const derived = parseWebhookSecretKeys({}, true);
    expect([derived.derived, derived.current.length]).toEqual([true, 32]);
    expect(parseWebhookSecretKeys({ WEBHOOK_SECRET_KEY: good }, false)).toEqual({ current: Buffer.alloc(32, 7), previous: [], derived: false });
  });

  it("must be 32 bytes of base64, the previous keys too", () => {
    for (const bad of [Buffer.alloc(16).toString("base64"), "not base64!", `${good}x`]) {
      expect(() => parseWebhookSecretKeys({ WEBHOOK_SECRET_KEY: bad }, true), bad).toThrow(/WEBHOOK_SECRET_KEY: must be 32 bytes/);
    }
    expect(() => parseWebhookSecretKeys({ WEBHOOK_SECRET_KEY: good, WEBHOOK_SECRET_PREVIOUS_KEYS: `${good}, short` }, false)).toThrow(/WEBHOOK_SECRET_PREVIOUS_KEYS/);
    expect(parseWebhookSecretKeys({ WEBHOOK_SECRET_KEY: good, WEBHOOK_SECRET_PREVIOUS_KEYS: ` ${good} ,` }, false).previous).toEqual([Buffer.alloc(32, 7)]);
  });
});

describe("WEBHOOK_SECRET_KEYS, the keyring", () => {
  const [a, b, c] = [1, 2, 3].map((n) => Buffer.alloc(32, n));
  const ring = (...keys: Buffer[]) => keys.map((k) => k.toString("base64")).join(", ");

  it("encrypts with the first key and decrypts with every one", () => {
    expect(parseWebhookSecretKeys({ WEBHOOK_SECRET_KEYS: ring(a!, b!, c!) }, false)).toEqual({ current: a, previous: [b, c], derived: false });
  });

  it("lets a replica still on the old keyring decrypt what the rotated one must keep decrypting", () => {
    const before = new SecretCipher(parseWebhookSecretKeys({ WEBHOOK_SECRET_KEYS: ring(a!) }, false));
    const stored = before.encrypt(SECRET, context);
    const after = new SecretCipher(parseWebhookSecretKeys({ WEBHOOK_SECRET_KEYS: ring(b!, a!) }, false));
    expect(after.decrypt(stored, context)).toBe(SECRET);
    expect(before.decrypt(stored, context)).toBe(SECRET);
  });

  it("is one form or the other, never both, and names at least one key of 32 bytes", () => {
    expect(() => parseWebhookSecretKeys({ WEBHOOK_SECRET_KEYS: ring(a!), WEBHOOK_SECRET_KEY: ring(b!) }, false)).toThrow(/WEBHOOK_SECRET_KEYS: replaces/);
    expect(() => parseWebhookSecretKeys({ WEBHOOK_SECRET_KEYS: ring(a!), WEBHOOK_SECRET_PREVIOUS_KEYS: ring(b!) }, false)).toThrow(/WEBHOOK_SECRET_KEYS: replaces/);
    expect(() => parseWebhookSecretKeys({ WEBHOOK_SECRET_KEYS: " , " }, false)).toThrow(/WEBHOOK_SECRET_KEYS: names no key/);
    expect(() => parseWebhookSecretKeys({ WEBHOOK_SECRET_KEYS: `${ring(a!)},short` }, false)).toThrow(/WEBHOOK_SECRET_KEYS: must be 32 bytes/);
  });
});
