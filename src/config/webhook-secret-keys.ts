/**
 * AES-256-GCM keys of the webhook secrets at rest. A section of its own because `npm run migrate`
 * and `npm run webhooks:reencrypt-secrets` read it without the rest of the configuration.
 */
import { createHash } from "node:crypto";
import { ConfigError } from "./config-error.js";
import type { Env } from "./env.js";
import { optional } from "./env-values.js";

/** `current` encrypts, every one decrypts. */
export interface WebhookSecretKeys {
  current: Buffer;
  previous: Buffer[];
  /** No key was configured: the key derived from a constant is in use (development mode only). */
  derived: boolean;
}

/** Development mode only: anyone with the source can decrypt what this key encrypted. */
const DEVELOPMENT_WEBHOOK_SECRET_KEY = createHash("sha256").update("files-and-fields development webhook secret key").digest();

function secretKey(name: string, raw: string): Buffer {
  const key = Buffer.from(raw, "base64");
  if (key.length !== 32 || key.toString("base64") !== raw) throw new ConfigError(name, "must be 32 bytes in base64 (openssl rand -base64 32)");
  return key;
}

const keyList = (name: string, raw: string | undefined) =>
  (raw ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k !== "")
    .map((k) => secretKey(name, k));

/**
 * The keyring: `WEBHOOK_SECRET_KEYS` (comma-separated, the first encrypts, every one decrypts),
 * or the older pair `WEBHOOK_SECRET_KEY` (encrypts) and `WEBHOOK_SECRET_PREVIOUS_KEYS` (decrypt
 * only). Each ciphertext names its key by an id derived from the key itself, so no id is
 * configured and none can be given to two keys.
 */
export function parseWebhookSecretKeys(env: Env, developmentMode: boolean): WebhookSecretKeys {
  const ring = optional(env, "WEBHOOK_SECRET_KEYS");
  const raw = optional(env, "WEBHOOK_SECRET_KEY");
  const previousRaw = optional(env, "WEBHOOK_SECRET_PREVIOUS_KEYS");
  if (ring !== undefined) {
    if (raw !== undefined || previousRaw !== undefined) {
      throw new ConfigError("WEBHOOK_SECRET_KEYS", "replaces WEBHOOK_SECRET_KEY and WEBHOOK_SECRET_PREVIOUS_KEYS: set one form only");
    }
    const [current, ...older] = keyList("WEBHOOK_SECRET_KEYS", ring);
    if (!current) throw new ConfigError("WEBHOOK_SECRET_KEYS", "names no key");
    return { current, previous: older, derived: false };
  }
  if (raw === undefined && !developmentMode) throw new ConfigError("WEBHOOK_SECRET_KEY", "is required, or WEBHOOK_SECRET_KEYS (DEVELOPMENT_MODE=true uses a development key)");
  const previous = keyList("WEBHOOK_SECRET_PREVIOUS_KEYS", previousRaw);
  if (raw === undefined) return { current: DEVELOPMENT_WEBHOOK_SECRET_KEY, previous, derived: true };
  return { current: secretKey("WEBHOOK_SECRET_KEY", raw), previous, derived: false };
}
