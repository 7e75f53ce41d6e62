import type { KeyObject } from "node:crypto";
import type { ChainedEntry, Checkpoint } from "../../domain/audit/chain/chain-link.js";
import type { PublicKeyRing } from "./chain/checkpoint-signature.js";
import type { Cursor } from "../../domain/pagination.js";

/** The head of a tenant's chain: its last sealed entry, and how far migration 0012 chained (audit_chain_tenants). */
export interface ChainHead {
  tenantId: string;
  sequence: number;
  hash: string;
  /** Entries up to this sequence were chained by the migration that introduced the chain. */
  anchoredThrough: number;
  anchoredAt: Date | null;
}

/** Reads of the chain itself: heads and links, in sequence order, for verification and export. */
export interface AuditChainReader {
  head(tenantId: string): Promise<ChainHead | undefined>;
  /** Sealed entries with afterSequence < sequence <= throughSequence, ascending, at most `limit`. */
  links(tenantId: string, afterSequence: number, throughSequence: number, limit: number): Promise<ChainedEntry[]>;
  /** Rows of the tenant that carry no sequence: written behind the trigger's back. */
  unsealed(tenantId: string, limit: number): Promise<ChainedEntry[]>;
}

/** Signed checkpoints (audit_checkpoints). */
export interface AuditCheckpointStore {
  /** Checkpoints with sequence >= fromSequence, ascending. */
  from(tenantId: string, fromSequence: number): Promise<Checkpoint[]>;
  latest(tenantId: string): Promise<Checkpoint | undefined>;
  /** Newest first, one keyset page. */
  page(tenantId: string, after: Cursor | undefined, limit: number): Promise<Checkpoint[]>;
  /**
   * Stores the checkpoint and, in the same transaction, its own AUDIT_CHECKPOINT_SIGNED entry
   * (src/domain/audit/chain/checkpoint-entry.ts). Idempotent: a second insert of the same
   * (tenant, sequence) keeps the first and writes no second entry. Returns the stored one.
   */
  insert(checkpoint: Checkpoint): Promise<Checkpoint>;
  /**
   * Tenants whose head is past their newest checkpoint (or who have none), not counting that
   * checkpoint's own entry right after it, by id, after `afterTenantId`: a run pages through
   * them, so tenants it cannot sign never hide the others.
   */
  tenantsToCheckpoint(limit: number, afterTenantId?: string): Promise<string[]>;
}

/** The signing key of new checkpoints and every public key that verifies old ones. */
export interface AuditSigningKeys {
  current: { keyId: string; privateKey: KeyObject };
  /** Current and retired public keys by id. */
  ring: PublicKeyRing;
  /** For ListAuditSigningKeys and the well-known document. */
  published: { keyId: string; publicKeyPem: string; current: boolean }[];
}
