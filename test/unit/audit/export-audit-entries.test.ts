import { describe, expect, it } from "vitest";
import { exportAuditEntries } from "../../../src/app/audit/export-audit-entries.js";
import type { AuditEntryView, AuditTrail } from "../../../src/app/audit/port.js";
import type { AuditQuery } from "../../../src/domain/audit/audit-query.js";

function entry(i: number): AuditEntryView {
  return {
    id: `00000000-0000-7000-8000-${String(i).padStart(12, "0")}`,
    objectId: "o",
    action: "UPLOAD_INITIATED",
    actorId: "a",
    correlationId: `c${i}`,
    result: "SUCCESS",
    occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 3))),
  };
}

/** A trail over a sorted array that records every query it answers. */
function trailOf(entries: AuditEntryView[]) {
  const queries: AuditQuery[] = [];
  const trail: AuditTrail = {
    async search(_tenant, query) {
      queries.push(query);
      const after = query.after;
      const past = entries.filter((e) => !after || e.occurredAt > after.at || (e.occurredAt.getTime() === after.at.getTime() && e.id > after.id));
      return past.slice(0, query.limit);
    },
    objectExists: async () => true,
    sessionsOf: async () => [],
    countByTenant: async () => new Map(),
  };
  return { trail, queries };
}

describe("exportAuditEntries", () => {
  const actor = { tenantId: "t", actorId: "a" };

  it("yields every entry once, oldest first, reading one page per step", async () => {
    const entries = Array.from({ length: 25 }, (_, i) => entry(i));
    const { trail, queries } = trailOf(entries);
    const seen: string[] = [];
    for await (const e of exportAuditEntries(trail, actor, {}, 10)) seen.push(e.id);
    expect(seen).toEqual(entries.map((e) => e.id));
    expect(queries.map((q) => q.order)).toEqual(["oldest_first", "oldest_first", "oldest_first"]);
    expect(queries.every((q) => q.limit === 10)).toBe(true);
  });

  it("reads the next page only when the consumer gets there", async () => {
    const { trail, queries } = trailOf(Array.from({ length: 30 }, (_, i) => entry(i)));
    const iterator = exportAuditEntries(trail, actor, {}, 10);
    for (let i = 0; i < 10; i++) await iterator.next();
    expect(queries).toHaveLength(1);
    await iterator.next();
    expect(queries).toHaveLength(2);
    await iterator.return(undefined);
  });

  it("checks the filter before reading anything", async () => {
    const { trail, queries } = trailOf([]);
    await expect(exportAuditEntries(trail, actor, { ownerId: "x" }).next()).rejects.toThrow(/ownerType/);
    expect(queries).toHaveLength(0);
  });
});
