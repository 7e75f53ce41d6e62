import { createPublicKey, type KeyObject } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { PublicKeyRing } from "../../app/audit/chain/checkpoint-signature.js";
import { UsageError } from "../context.js";

/** A public key as ListAuditSigningKeys and /.well-known/audit-signing-keys.json publish it. */
export interface PublishedKey {
  keyId: string;
  publicKeyPem: string;
}

/** An Ed25519 public key from SPKI PEM; anything else is refused, as no checkpoint is signed with it. */
function ed25519Key(pem: string, where: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (error) {
    throw new UsageError(`${where}: not a public key in PEM (${(error as Error).message})`);
  }
  if (key.asymmetricKeyType !== "ed25519") throw new UsageError(`${where}: an ${key.asymmetricKeyType} key; checkpoints are signed with Ed25519`);
  return key;
}

async function readText(path: string, option: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`${option}: cannot read ${path} (${(error as Error).message})`);
  }
}

/** `--key KEYID=PATH`, repeatable: SPKI PEM files. */
export async function keysFromPemFiles(specs: string[]): Promise<PublishedKey[]> {
  const keys: PublishedKey[] = [];
  for (const spec of specs) {
    const at = spec.indexOf("=");
    if (at <= 0 || at === spec.length - 1) throw new UsageError(`--key: expected KEYID=PATH, got "${spec}"`);
    keys.push({ keyId: spec.slice(0, at), publicKeyPem: await readText(spec.slice(at + 1), "--key") });
  }
  return keys;
}

/** `--keys FILE`: the document served at /.well-known/audit-signing-keys.json. */
export async function keysFromDocument(path: string): Promise<PublishedKey[]> {
  let document: unknown;
  try {
    document = JSON.parse(await readText(path, "--keys"));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--keys: ${path} is not JSON (${(error as Error).message})`);
  }
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new UsageError(`--keys: ${path} has no "keys" array (expected the document of /.well-known/audit-signing-keys.json)`);
  return keys.map((key, index) => {
    const { keyId, publicKeyPem } = (key ?? {}) as Record<string, unknown>;
    if (typeof keyId !== "string" || !keyId || typeof publicKeyPem !== "string") throw new UsageError(`--keys: keys[${index}] needs "keyId" and "publicKeyPem"`);
    return { keyId, publicKeyPem };
  });
}

export function keyRingOf(keys: PublishedKey[]): PublicKeyRing {
  const ring = new Map<string, KeyObject>();
  for (const key of keys) {
    const parsed = ed25519Key(key.publicKeyPem, `key "${key.keyId}"`);
    const known = ring.get(key.keyId);
    // One id naming two keys would let either verify as the other: refuse rather than pick one.
    if (known && !known.equals(parsed)) throw new UsageError(`key "${key.keyId}" is given twice, as two different keys`);
    ring.set(key.keyId, parsed);
  }
  return ring;
}
