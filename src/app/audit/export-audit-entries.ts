import type { Actor } from "../../domain/actor.js";
import { checkAuditFilter, type AuditFilter } from "../../domain/audit/audit-query.js";
import type { Cursor } from "../../domain/pagination.js";
import type { AuditEntryView, AuditTrail } from "./port.js";

/** Rows read per query: big enough to amortise the round trip, small enough to keep memory flat. */
export const EXPORT_BATCH_SIZE = 1000;

/**
 * Every entry matching `filter`, oldest first, one keyset page at a time: the export holds one
 * page in memory whatever the tenant's history. The consumer pulls, so a slow reader (a client
 * on a slow link) slows the reads instead of buffering them.
 */
export async function* exportAuditEntries(trail: AuditTrail, actor: Actor, filter: AuditFilter, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<AuditEntryView> {
  const checked = checkAuditFilter(filter);
  let after: Cursor | undefined;
  for (;;) {
    const page = await trail.search(actor.tenantId, { filter: checked, order: "oldest_first", after, limit: batchSize });
    yield* page;
    const last = page.at(-1);
    if (!last || page.length < batchSize) return;
    after = { at: last.occurredAt, id: last.id };
  }
}
