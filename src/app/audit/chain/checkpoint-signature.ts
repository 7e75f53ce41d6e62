import { type KeyObject, verify } from "node:crypto";
import type { Checkpoint } from "../../../domain/audit/chain/chain-link.js";
import { checkpointPayload } from "../../../domain/audit/chain/checkpoint-payload.js";

/** Public keys by key id: the current one and every retired one still verifying old checkpoints. */
export type PublicKeyRing = ReadonlyMap<string, KeyObject>;

/** Why a checkpoint's signature does not hold, or undefined when it does. */
export function checkpointSignatureProblem(checkpoint: Checkpoint, keys: PublicKeyRing): string | undefined {
  const key = keys.get(checkpoint.keyId);
  if (!key) return `checkpoint at sequence ${checkpoint.sequence} names key "${checkpoint.keyId}", which is not among the keys given`;
  const payload = Buffer.from(checkpointPayload(checkpoint.tenantId, checkpoint.sequence, checkpoint.hash, checkpoint.signedAt), "utf8");
  const signature = Buffer.from(checkpoint.signature, "base64");
  if (!verify(null, payload, key, signature)) return `checkpoint at sequence ${checkpoint.sequence} has a signature that key "${checkpoint.keyId}" does not verify`;
  return undefined;
}
