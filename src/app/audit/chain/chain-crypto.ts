import type { ChainCrypto } from "../../../domain/audit/chain/chain-verifier.js";
import { checkpointSignatureProblem, type PublicKeyRing } from "./checkpoint-signature.js";
import { linkHash } from "./link-hash.js";

/** The verifier's cryptography with Node's SHA-256 and Ed25519, checking signatures with `keys`. */
export function nodeChainCrypto(keys: PublicKeyRing): ChainCrypto {
  return { linkHash, signatureProblem: (checkpoint) => checkpointSignatureProblem(checkpoint, keys) };
}
