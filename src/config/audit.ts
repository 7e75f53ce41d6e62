/**
 * The keys that sign checkpoints of the audit hash chain: `AUDIT_SIGNING_KEY` signs new ones,
 * `AUDIT_RETIRED_PUBLIC_KEYS` still verify the ones older keys signed. Each key carries an id that
 * its checkpoints name, so a rotation is: a new id and key as the signing key, the old public key
 * under its old id among the retired ones (`npm run audit:keygen` prints both forms).
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import type { AuditSigningKeys } from "../app/audit/port.js";
import { ConfigError } from "./config-error.js";

export interface AuditConfig {
  signingKeys: AuditSigningKeys;
  /** No key was configured: the development key, derived from a constant, signs (development mode only). */
  developmentKey: boolean;
  /** How often the schedule signs the head of every tenant's chain that moved. */
  checkpointIntervalSeconds: number;
}

/** Ids go into configuration lists (`,` and `:` separate them) and into URLs and file names. */
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

export const DEVELOPMENT_AUDIT_KEY_ID = "development-1";

/**
 * Development mode only: anyone with the source can sign with it. An Ed25519 private key in
 * PKCS#8 DER is this fixed 16-byte prefix and the key's 32-byte seed (RFC 8410).
 */
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

function developmentKey(): KeyObject {
  const seed = createHash("sha256").update("files-and-fields development audit signing key").digest();
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
}

/** `<keyId>:<base64 DER>` split at the first colon, both parts checked. */
function idAndDer(name: string, entry: string, what: string): { keyId: string; der: Buffer } {
  const colon = entry.indexOf(":");
  const keyId = colon < 0 ? "" : entry.slice(0, colon).trim();
  const base64 = colon < 0 ? "" : entry.slice(colon + 1).trim();
  if (!KEY_ID.test(keyId)) throw new ConfigError(name, `must be <keyId>:<base64 ${what}>, the id of letters, digits, ".", "_" or "-" (at most 64)`);
  const der = Buffer.from(base64, "base64");
  // Buffer.from skips what is not base64: reading it back says whether all of it was.
  if (der.length === 0 || der.toString("base64") !== base64) throw new ConfigError(name, `key "${keyId}": not valid base64 (npm run audit:keygen prints one)`);
  return { keyId, der };
}

function ed25519(name: string, keyId: string, read: () => KeyObject, what: string): KeyObject {
  let key: KeyObject;
  try {
    key = read();
  } catch {
    throw new ConfigError(name, `key "${keyId}": not a ${what}`);
  }
  if (key.asymmetricKeyType !== "ed25519") throw new ConfigError(name, `key "${keyId}": an ${key.asymmetricKeyType ?? "unknown"} key, not Ed25519`);
  return key;
}

function signingKey(raw: string): { keyId: string; privateKey: KeyObject } {
  const name = "AUDIT_SIGNING_KEY";
  const { keyId, der } = idAndDer(name, raw, "PKCS#8 DER Ed25519 private key");
  return { keyId, privateKey: ed25519(name, keyId, () => createPrivateKey({ key: der, format: "der", type: "pkcs8" }), "PKCS#8 DER private key") };
}

function retiredKeys(raw: string | undefined, currentId: string): Map<string, KeyObject> {
  const name = "AUDIT_RETIRED_PUBLIC_KEYS";
  const keys = new Map<string, KeyObject>();
  for (const entry of (raw ?? "").split(",").map((e) => e.trim()).filter((e) => e !== "")) {
    const { keyId, der } = idAndDer(name, entry, "SPKI DER Ed25519 public key");
    if (keyId === currentId) throw new ConfigError(name, `key "${keyId}" is the id of AUDIT_SIGNING_KEY: a retired key needs an id of its own`);
    if (keys.has(keyId)) throw new ConfigError(name, `key "${keyId}" is given twice`);
    keys.set(keyId, ed25519(name, keyId, () => createPublicKey({ key: der, format: "der", type: "spki" }), "SPKI DER public key"));
  }
  return keys;
}

const pem = (key: KeyObject) => key.export({ format: "pem", type: "spki" }).toString();

/**
 * The signing key and the public key ring. Without DEVELOPMENT_MODE the signing key is required:
 * a checkpoint signed with a key from the source proves nothing.
 */
export function parseAuditSigningKeys(env: Readonly<Record<string, string | undefined>>, developmentMode: boolean): Omit<AuditConfig, "checkpointIntervalSeconds"> {
  const raw = env.AUDIT_SIGNING_KEY?.trim() || undefined;
  if (raw === undefined && !developmentMode) throw new ConfigError("AUDIT_SIGNING_KEY", "is required (npm run audit:keygen prints one; DEVELOPMENT_MODE=true uses a development key)");
  const current = raw === undefined ? { keyId: DEVELOPMENT_AUDIT_KEY_ID, privateKey: developmentKey() } : signingKey(raw);
  const retired = retiredKeys(env.AUDIT_RETIRED_PUBLIC_KEYS, current.keyId);
  const ring = new Map<string, KeyObject>([[current.keyId, createPublicKey(current.privateKey)], ...retired]);
  const published = [...ring].map(([keyId, key]) => ({ keyId, publicKeyPem: pem(key), current: keyId === current.keyId }));
  return { signingKeys: { current, ring, published }, developmentKey: raw === undefined };
}

/** The two configuration forms of a key pair: what AUDIT_SIGNING_KEY takes, and its entry once retired. */
export function auditKeySettings(keyId: string, privateKey: KeyObject): { signingKey: string; retiredPublicKey: string; publicKeyPem: string } {
  if (!KEY_ID.test(keyId)) throw new ConfigError("--key-id", `"${keyId}" must be letters, digits, ".", "_" or "-" (at most 64)`);
  const publicKey = createPublicKey(privateKey);
  return {
    signingKey: `${keyId}:${privateKey.export({ format: "der", type: "pkcs8" }).toString("base64")}`,
    retiredPublicKey: `${keyId}:${publicKey.export({ format: "der", type: "spki" }).toString("base64")}`,
    publicKeyPem: pem(publicKey),
  };
}
