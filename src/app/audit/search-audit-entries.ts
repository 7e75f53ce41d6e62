import type { Actor } from "../../domain/actor.js";
import { auditQueryKey, checkAuditFilter, type AuditFilter, type AuditOrder } from "../../domain/audit/audit-query.js";
import { readPage, type Page } from "../../domain/pagination.js";
import type { AuditEntryView, AuditTrail } from "./port.js";

export interface AuditSearch {
  filter: AuditFilter;
  order: AuditOrder;
  pageSize: number;
  pageToken: string;
}

/** One page of the tenant's audit trail; a page token only continues the search it came from. */
export function searchAuditEntries(trail: AuditTrail, actor: Actor, search: AuditSearch): Promise<Page<AuditEntryView>> {
  const filter = checkAuditFilter(search.filter);
  return readPage(
    { pageSize: search.pageSize, pageToken: search.pageToken, filterKey: auditQueryKey(filter, search.order) },
    (after, limit) => trail.search(actor.tenantId, { filter, order: search.order, after, limit }),
    (entry) => ({ at: entry.occurredAt, id: entry.id }),
  );
}
