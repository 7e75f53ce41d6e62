/**
 * What the audit use cases need from outside, in domain terms: the trail (searches and pages of
 * entries), the chain's heads and links, the signed checkpoints and the signing keys. The stores
 * are in src/adapters/postgres; src/main loads the keys (src/config).
 */
import type { KeyObject } from "node:crypto";
import type { AuditQuery } from "../../domain/audit/audit-query.js";
import type { ChainedEntry, Checkpoint } from "../../domain/audit/chain/chain-link.js";
import type { Cursor } from "../../domain/pagination.js";
import type { PublicKeyRing } from "./chain/checkpoint-signature.js";

/** One audit entry as the trail keeps it, after its object is gone too. */
export interface AuditEntryView {
  id: string;
  objectId: string;
  action: string;
  actorId: string;
  requestId?: string | null;
  correlationId: string;
  result: string;
  details?: Record<string, unknown> | null;
  occurredAt: Date;
  objectClass?: string | null;
  ownerType?: string | null;
  ownerId?: string | null;
  /** Its link in the tenant's hash chain; null when the row was never sealed. */
  chain?: ChainLinkView | null;
}

export interface ChainLinkView {
  sequence: number;
  previousHash: string;
  hash: string;
  canonical: string;
}

/** An upload session as an audit record: what initiate (or a refreshed URL) allowed. */
export interface UploadSessionView {
  id: string;
  initiatedBy: string;
  presignExpiresAt: Date;
  expectedContentType: string;
  expectedFileSize: number;
  contentMd5?: string | null;
  contentSha256?: string | null;
  policySnapshot: Record<string, unknown>;
  completedAt?: Date | null;
  createdAt: Date;
}

/** The tenant-wide audit trail: read-only, never pruned with the objects it is about. */
export interface AuditTrail {
  /** One page of `query`, in its order. */
  search(tenantId: string, query: AuditQuery): Promise<AuditEntryView[]>;
  /** Sealed entries past `afterSequence`, in chain order. */
  chainPage(tenantId: string, afterSequence: number, limit: number): Promise<AuditEntryView[]>;
  /** Entries that carry no sequence (written behind the seal trigger), oldest first. */
  unsealedPage(tenantId: string, after: Cursor | undefined, limit: number): Promise<AuditEntryView[]>;
  /** Whether the tenant ever had this object, deleted and expired ones included. */
  objectExists(tenantId: string, objectId: string): Promise<boolean>;
  sessionsOf(tenantId: string, objectId: string): Promise<UploadSessionView[]>;
  /** Entries per tenant, for the growth metric. */
  countByTenant(): Promise<Map<string, number>>;
}

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
