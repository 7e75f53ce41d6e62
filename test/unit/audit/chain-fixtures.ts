/**
 * Builders of synthetic audit chains for the verifier's and the CLI's tests: entries hashed with
 * the production linkHash, checkpoints signed with a generated Ed25519 key, and the tampering an
 * attacker with database access (or with the export file) could do.
 */
import { generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { linkHash } from "../../../src/app/audit/chain/link-hash.js";
import { type CanonicalEntry, CANONICAL_VERSION } from "../../../src/domain/audit/chain/canonical-entry.js";
import { type ChainedEntry, type Checkpoint, GENESIS_HASH } from "../../../src/domain/audit/chain/chain-link.js";
import { checkpointPayload } from "../../../src/domain/audit/chain/checkpoint-payload.js";

export const TENANT = "tenant-chain";

export interface SigningKey {
  keyId: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export function signingKey(keyId: string): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return { keyId, privateKey, publicKey };
}

export const ringOf = (...keys: SigningKey[]) => new Map(keys.map((key) => [key.keyId, key.publicKey]));

/** An entry's fields as the database stores them; `i` makes each one distinct. */
export function fieldsOf(i: number, tenantId = TENANT): CanonicalEntry {
  return {
    tenantId,
    id: `00000000-0000-7000-8000-${String(i).padStart(12, "0")}`,
    objectId: `11111111-0000-7000-8000-${String(i % 7).padStart(12, "0")}`,
    action: i % 2 ? "UPLOAD_COMPLETED" : "UPLOAD_INITIATED",
    actorId: `user-${i % 3}`,
    requestId: i % 5 ? `req-${i}` : null,
    correlationId: `corr-${i}`,
    result: "SUCCESS",
    // Microseconds, as to_char(... 'US') writes them.
    occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i, 123)).toISOString().replace("Z", "456Z"),
    objectClass: i % 4 ? "GENERAL_DOCUMENT" : null,
    ownerType: "User",
    ownerId: `owner-${i % 2}`,
    details: { size: i * 10, name: `file ${i}.pdf` },
  };
}

/** The text PostgreSQL's jsonb_build_array(...)::text writes (its spacing included). */
export function canonicalText(fields: CanonicalEntry): string {
  const values = [CANONICAL_VERSION, fields.tenantId, fields.id, fields.objectId, fields.action, fields.actorId, fields.requestId, fields.correlationId,
    fields.result, fields.occurredAt, fields.objectClass, fields.ownerType, fields.ownerId, fields.details];
  return `[${values.map((value) => JSON.stringify(value)).join(", ")}]`;
}

/** A link whose hash covers `canonical` after `previousHash`, as the seal trigger writes it. */
export function sealed(id: string, sequence: number, previousHash: string, canonical: string): ChainedEntry {
  return { id, sequence, previousHash, hash: linkHash(previousHash, canonical), canonical };
}

/** Entries 1..count of a tenant's chain, from the genesis hash. */
export function chainOf(count: number, tenantId = TENANT): ChainedEntry[] {
  return reseal(Array.from({ length: count }, (_, i) => ({ id: fieldsOf(i + 1, tenantId).id, sequence: i + 1, previousHash: "", hash: "", canonical: canonicalText(fieldsOf(i + 1, tenantId)) })), 0);
}

/**
 * Renumbers and rehashes `entries` from index `from` on, following the entry before it: what an
 * attacker who rewrites the chain's columns does to hide a change.
 */
export function reseal(entries: ChainedEntry[], from: number): ChainedEntry[] {
  const out = entries.slice(0, from);
  for (const entry of entries.slice(from)) {
    const before = out.at(-1);
    out.push(sealed(entry.id, (before?.sequence ?? 0) + 1, before?.hash ?? GENESIS_HASH, entry.canonical));
  }
  return out;
}

export function checkpointAt(entry: ChainedEntry, key: SigningKey, signedAt = new Date(Date.UTC(2026, 0, 2, 0, 0, entry.sequence!)), tenantId = TENANT): Checkpoint {
  const payload = checkpointPayload(tenantId, entry.sequence!, entry.hash, signedAt);
  return {
    tenantId,
    sequence: entry.sequence!,
    hash: entry.hash,
    signedAt,
    keyId: key.keyId,
    signature: sign(null, Buffer.from(payload, "utf8"), key.privateKey).toString("base64"),
  };
}
