import { sign } from "node:crypto";
import type { Checkpoint } from "../../../domain/audit/chain/chain-link.js";
import { checkpointPayload } from "../../../domain/audit/chain/checkpoint-payload.js";
import type { AuditSigningKeys } from "../port.js";

/**
 * A checkpoint of `hash` at `sequence`, signed now with the current key. Ed25519 takes no digest
 * (the `null`): it hashes the payload itself. The time is cut to milliseconds, the precision the
 * payload shows, so what is stored and what was signed are the same instant.
 */
export function signCheckpoint(key: AuditSigningKeys["current"], tenantId: string, sequence: number, hash: string, now: Date): Checkpoint {
  const signedAt = new Date(Math.floor(now.getTime()));
  const payload = Buffer.from(checkpointPayload(tenantId, sequence, hash, signedAt), "utf8");
  return { tenantId, sequence, hash, signedAt, keyId: key.keyId, signature: sign(null, payload, key.privateKey).toString("base64") };
}
