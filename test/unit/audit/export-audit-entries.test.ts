import { describe, expect, it } from "vitest";
import { exportAuditEntries, type ExportItem } from "../../../src/app/audit/export-audit-entries.js";
import type { AuditCheckpointStore, AuditEntryView, AuditTrail } from "../../../src/app/audit/port.js";
import type { AuditQuery } from "../../../src/domain/audit/audit-query.js";
import type { Checkpoint } from "../../../src/domain/audit/chain/chain-link.js";

function entry(i: number, sequence: number | null = i + 1): AuditEntryView {
  return {
    id: `00000000-0000-7000-8000-${String(i).padStart(12, "0")}`,
    objectId: "o",
    action: "UPLOAD_INITIATED",
    actorId: "a",
    correlationId: `c${i}`,
    result: "SUCCESS",
    occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 3))),
    chain: sequence === null ? null : { sequence, previousHash: "p", hash: `h${sequence}`, canonical: "[]" },
  };
}

const byTime = (after: AuditQuery["after"]) => (e: AuditEntryView) =>
  !after || e.occurredAt > after.at || (e.occurredAt.getTime() === after.at.getTime() && e.id > after.id);

/** A trail over a sorted array that records every query it answers. */
function trailOf(entries: AuditEntryView[]) {
  const queries: string[] = [];
  const trail: AuditTrail = {
    async search(_tenant, query) {
      queries.push(`search:${query.order}:${query.limit}`);
      return entries.filter(byTime(query.after)).slice(0, query.limit);
    },
    async chainPage(_tenant, afterSequence, limit) {
      queries.push(`chain:${afterSequence}:${limit}`);
      return entries.filter((e) => e.chain && e.chain.sequence > afterSequence).sort((a, b) => a.chain!.sequence - b.chain!.sequence).slice(0, limit);
    },
    async unsealedPage(_tenant, after, limit) {
      queries.push(`unsealed:${limit}`);
      return entries.filter((e) => !e.chain).filter(byTime(after)).slice(0, limit);
    },
    objectExists: async () => true,
    sessionsOf: async () => [],
    countByTenant: async () => new Map(),
  };
  return { trail, queries };
}

function checkpointsOf(list: Checkpoint[]): AuditCheckpointStore {
  return {
    from: async (_tenant, fromSequence) => list.filter((c) => c.sequence >= fromSequence),
    latest: async () => list.at(-1),
    page: async () => list,
    insert: async (c) => c,
    tenantsToCheckpoint: async () => [],
  };
}

const checkpoint = (sequence: number): Checkpoint => ({ tenantId: "t", sequence, hash: `h${sequence}`, signedAt: new Date(0), keyId: "k", signature: "" });
const label = (item: ExportItem) => ("entry" in item ? `e${item.entry.chain?.sequence ?? `-${item.entry.id.slice(-2)}`}` : `c${item.checkpoint.sequence}`);

async function collect(items: AsyncGenerator<ExportItem>): Promise<string[]> {
  const seen: string[] = [];
  for await (const item of items) seen.push(label(item));
  return seen;
}

describe("exportAuditEntries", () => {
  const actor = { tenantId: "t", actorId: "a" };

  it("exports a filtered search oldest first, one page per step, without checkpoints", async () => {
    const entries = Array.from({ length: 25 }, (_, i) => entry(i));
    const { trail, queries } = trailOf(entries);
    const seen: string[] = [];
    for await (const item of exportAuditEntries({ trail, checkpoints: checkpointsOf([checkpoint(3)]) }, actor, { result: "SUCCESS" }, 0, 10)) {
      seen.push("entry" in item ? item.entry.id : "checkpoint");
    }
    expect(seen).toEqual(entries.map((e) => e.id));
    expect(queries).toEqual(["search:oldest_first:10", "search:oldest_first:10", "search:oldest_first:10"]);
  });

  it("exports the whole trail in chain order, then unsealed rows, then the checkpoints from the range on", async () => {
    // Sequence order differs from time order: the chain is the order of commits.
    const entries = [entry(0, 2), entry(1, 1), entry(2, 3), entry(3, null), entry(4, 4)];
    const { trail } = trailOf(entries);
    const seen = await collect(exportAuditEntries({ trail, checkpoints: checkpointsOf([checkpoint(2), checkpoint(4), checkpoint(9)]) }, actor, {}, 0, 2));
    expect(seen).toEqual(["e1", "e2", "e3", "e4", "e-03", "c2", "c4", "c9"]);
  });

  it("starts after a sequence for an incremental archive", async () => {
    const { trail } = trailOf(Array.from({ length: 6 }, (_, i) => entry(i)));
    const seen = await collect(exportAuditEntries({ trail, checkpoints: checkpointsOf([checkpoint(2), checkpoint(5)]) }, actor, {}, 3, 10));
    expect(seen).toEqual(["e4", "e5", "e6", "c5"]);
  });

  it("leaves out a checkpoint signed while the export ran, which would cover entries it did not read", async () => {
    const { trail } = trailOf([entry(0), entry(1)]);
    const signed = [checkpoint(1)];
    const items = exportAuditEntries({ trail, checkpoints: checkpointsOf(signed) }, actor, {}, 0, 10);
    const seen = [label((await items.next()).value!)];
    signed.push(checkpoint(3));
    for await (const item of items) seen.push(label(item));
    expect(seen).toEqual(["e1", "e2", "c1"]);
  });

  it("reads the next page only when the consumer gets there", async () => {
    const { trail, queries } = trailOf(Array.from({ length: 30 }, (_, i) => entry(i)));
    const iterator = exportAuditEntries({ trail, checkpoints: checkpointsOf([]) }, actor, {}, 0, 10);
    for (let i = 0; i < 10; i++) await iterator.next();
    expect(queries).toHaveLength(1);
    await iterator.next();
    expect(queries).toHaveLength(2);
    await iterator.return(undefined);
  });

  it("checks the filter before reading anything", async () => {
    const { trail, queries } = trailOf([]);
    await expect(exportAuditEntries({ trail, checkpoints: checkpointsOf([]) }, actor, { ownerId: "x" }).next()).rejects.toThrow(/ownerType/);
    expect(queries).toHaveLength(0);
  });
});
