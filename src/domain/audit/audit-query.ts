import { AppError, type FieldViolation } from "../errors.js";
import type { Cursor } from "../pagination.js";
import { isStorableTime } from "../storable-time.js";

/** What a tenant-wide audit search may narrow by; every given filter must hold. */
export interface AuditFilter {
  /** Any of these actions. */
  actions?: string[];
  actorId?: string;
  objectId?: string;
  ownerType?: string;
  ownerId?: string;
  objectClass?: string;
  result?: "SUCCESS" | "FAILURE";
  correlationId?: string;
  /** Inclusive. */
  occurredAfter?: Date;
  /** Exclusive. */
  occurredBefore?: Date;
}

export type AuditOrder = "newest_first" | "oldest_first";

/** One page of a search: rows strictly past `after` in `order`. */
export interface AuditQuery {
  filter: AuditFilter;
  order: AuditOrder;
  after?: Cursor;
  limit: number;
}

/** Refuses filters that cannot mean anything: an owner id without its type, an empty range. */
export function checkAuditFilter(filter: AuditFilter): AuditFilter {
  const violations: FieldViolation[] = [];
  if (Boolean(filter.ownerType) !== Boolean(filter.ownerId)) {
    violations.push({ field: "filter.ownerType", description: "ownerType and ownerId are given together or not at all" });
  }
  for (const field of ["occurredAfter", "occurredBefore"] as const) {
    const at = filter[field];
    if (at && !isStorableTime(at)) violations.push({ field: `filter.${field}`, description: "must be within the years 1 to 9999" });
  }
  if (filter.occurredAfter && filter.occurredBefore && filter.occurredAfter >= filter.occurredBefore) {
    violations.push({ field: "filter.occurredBefore", description: "must be later than occurredAfter" });
  }
  if (violations.length > 0) throw new AppError("VALIDATION_FAILED", violations.map((v) => `${v.field} ${v.description}`).join("; "), { violations });
  return filter;
}

/** The identity of a search for its page tokens: a token only continues the search it came from. */
export function auditQueryKey(filter: AuditFilter, order: AuditOrder): string {
  const normalized = {
    ...filter,
    actions: filter.actions && [...new Set(filter.actions)].sort(),
    occurredAfter: filter.occurredAfter?.toISOString(),
    occurredBefore: filter.occurredBefore?.toISOString(),
  };
  return `audit-search:${order}:${JSON.stringify(normalized, Object.keys(normalized).sort())}`;
}
