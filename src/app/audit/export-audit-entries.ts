import type { Actor } from "../../domain/actor.js";
import { checkAuditFilter, type AuditFilter } from "../../domain/audit/audit-query.js";
import type { Checkpoint } from "../../domain/audit/chain/chain-link.js";
import type { Cursor } from "../../domain/pagination.js";
import type { AuditDeps } from "./deps.js";
import type { AuditEntryView, AuditTrail } from "./port.js";

/** Rows read per query: big enough to amortise the round trip, small enough to keep memory flat. */
export const EXPORT_BATCH_SIZE = 1000;

/** One message of an export: the entries first, then the checkpoints covering them. */
export type ExportItem = { entry: AuditEntryView } | { checkpoint: Checkpoint };

type ExportDeps = Pick<AuditDeps, "trail" | "checkpoints">;

/**
 * Every entry matching `filter`, one keyset page at a time: the export holds one page in memory
 * whatever the tenant's history. The consumer pulls, so a slow reader (a client on a slow link)
 * slows the reads instead of buffering them.
 *
 * Without a filter the export is the tenant's chain past `afterSequence`, in sequence order, then
 * the rows that were never sealed, then every checkpoint from there on: what an auditor needs to
 * verify it offline, a checkpoint past the last entry included (it shows a tail cut off).
 * A filtered export is oldest first by time, as a search.
 */
export async function* exportAuditEntries(deps: ExportDeps, actor: Actor, filter: AuditFilter, afterSequence = 0, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<ExportItem> {
  const checked = checkAuditFilter(filter);
  if (!isWholeTrail(checked)) {
    for await (const entry of filteredEntries(deps.trail, actor.tenantId, checked, batchSize)) yield { entry };
    return;
  }
  // Read before the entries: a checkpoint signed while the export runs could cover entries past
  // the last one read, and would then look like a tail cut off.
  const checkpoints = await deps.checkpoints.from(actor.tenantId, afterSequence + 1);
  for await (const entry of chainEntries(deps.trail, actor.tenantId, afterSequence, batchSize)) yield { entry };
  for await (const entry of unsealedEntries(deps.trail, actor.tenantId, batchSize)) yield { entry };
  for (const checkpoint of checkpoints) yield { checkpoint };
}

function isWholeTrail(filter: AuditFilter): boolean {
  return Object.values(filter).every((value) => value === undefined || (Array.isArray(value) && value.length === 0));
}

async function* filteredEntries(trail: AuditTrail, tenantId: string, filter: AuditFilter, batchSize: number): AsyncGenerator<AuditEntryView> {
  let after: Cursor | undefined;
  for (;;) {
    const page = await trail.search(tenantId, { filter, order: "oldest_first", after, limit: batchSize });
    yield* page;
    const last = page.at(-1);
    if (!last || page.length < batchSize) return;
    after = { at: last.occurredAt, id: last.id };
  }
}

async function* chainEntries(trail: AuditTrail, tenantId: string, afterSequence: number, batchSize: number): AsyncGenerator<AuditEntryView> {
  for (let after = afterSequence; ; ) {
    const page = await trail.chainPage(tenantId, after, batchSize);
    yield* page;
    if (page.length < batchSize) return;
    after = page.at(-1)!.chain!.sequence;
  }
}

async function* unsealedEntries(trail: AuditTrail, tenantId: string, batchSize: number): AsyncGenerator<AuditEntryView> {
  let after: Cursor | undefined;
  for (;;) {
    const page = await trail.unsealedPage(tenantId, after, batchSize);
    yield* page;
    const last = page.at(-1);
    if (!last || page.length < batchSize) return;
    after = { at: last.occurredAt, id: last.id };
  }
}
