import type { AuditQuery } from "../../domain/audit/audit-query.js";
import type { Cursor } from "../../domain/pagination.js";

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
