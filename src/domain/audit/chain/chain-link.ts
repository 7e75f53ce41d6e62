/** 64 hexadecimal zeros: the previous hash of a tenant's first entry. */
export const GENESIS_HASH = "0".repeat(64);

/** An audit entry as the chain sees it: its place, its hashes and the canonical text they cover. */
export interface ChainedEntry {
  id: string;
  /** Null for a row that was never sealed: it was written behind the database's trigger. */
  sequence: number | null;
  previousHash: string;
  hash: string;
  canonical: string;
}

/** A signed statement of a tenant chain's head. Hashes are lower-case hexadecimal. */
export interface Checkpoint {
  tenantId: string;
  sequence: number;
  hash: string;
  signedAt: Date;
  keyId: string;
  /** Base64 Ed25519 signature of `checkpointPayload(...)`. */
  signature: string;
}

export type ChainProblemKind = "EDITED" | "REMOVED" | "INSERTED" | "REORDERED" | "TRUNCATED" | "CHECKPOINT_MISMATCH" | "BAD_SIGNATURE";

export interface ChainProblem {
  kind: ChainProblemKind;
  /** Where it shows; for REMOVED the first sequence missing. */
  sequence: number;
  entryId?: string;
  message: string;
}

export interface ChainReport {
  intact: boolean;
  /** 0 when no entry was checked. */
  firstSequence: number;
  lastSequence: number;
  entriesChecked: number;
  checkpointsChecked: number;
  /** The newest checkpoint whose signature verified and whose hash the chain has at its sequence. */
  lastVerifiedCheckpoint?: Checkpoint;
  problem?: ChainProblem;
}
