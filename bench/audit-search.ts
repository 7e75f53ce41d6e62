/**
 * 8. The tenant-wide audit search at size: one tenant holding N audit entries (10 million is the
 * issue's size), each filter of AuditService.SearchAuditEntries asked for one page of 50 as the
 * API asks it (the SQL of src/adapters/postgres/audit-search-sql.ts), deep pages included. The
 * baseline is the same tenant's first unfiltered page: a filtered page that costs about the same
 * is an index range scan, whatever the table's size. The plan of each variant is in its notes.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { auditSearchSql } from "../src/adapters/postgres/audit-search-sql.js";
import { openDatabase } from "../src/adapters/postgres/orm.js";
import { parseConfig } from "../src/config/config.js";
import type { AuditQuery } from "../src/domain/audit/audit-query.js";
import type { BenchGroup } from "./context.js";
import { baseline, figure, type Figure } from "./figure.js";
import { planSummary, type Plan } from "./query-plan.js";
import { percentile, timed } from "./stats.js";
import { progress } from "./support.js";
import { loadGeneratedEntries } from "./audit-entries.js";

const TENANT = "bench-audit";
const PAGE = 51;
const START = Date.parse("2024-01-01T00:00:00Z");
/** One entry per second; 1 in 100 a FAILURE, 1,000 actors, an owner per 20 entries (bench/audit-entries.ts), sealed by the chain's trigger. */
async function load(orm: MikroORM, entries: number): Promise<void> {
  await loadGeneratedEntries(orm, TENANT, entries, "audit search");
  await orm.em.fork().execute("analyze audit_entries");
}

interface Variant {
  name: string;
  query: AuditQuery;
}

function variants(entries: number): Variant[] {
  const at = (second: number) => new Date(START + second * 1000);
  const middle = Math.floor(entries / 2);
  const page = (filter: AuditQuery["filter"], order: AuditQuery["order"] = "newest_first", after?: AuditQuery["after"]) => ({ filter, order, after, limit: PAGE });
  return [
    { name: "unfiltered, newest first", query: page({}) },
    { name: "actor", query: page({ actorId: "user-417" }) },
    { name: "action", query: page({ actions: ["OBJECT_DELETED"] }) },
    { name: "two actions", query: page({ actions: ["OBJECT_DELETED", "HOLD_PLACED"] }) },
    { name: "owner", query: page({ ownerType: "Case", ownerId: `case-${Math.floor(middle / 20)}` }) },
    { name: "object class", query: page({ objectClass: "REPORT" }) },
    { name: "result FAILURE", query: page({ result: "FAILURE" }) },
    { name: "correlation id", query: page({ correlationId: `req-${Math.floor(middle / 3)}` }) },
    { name: "one day, oldest first", query: page({ occurredAfter: at(middle), occurredBefore: at(middle + 86_400) }, "oldest_first") },
    { name: "deep page (middle of history)", query: page({ actorId: "user-417" }, "newest_first", { at: at(middle), id: "ffffffff-ffff-ffff-ffff-ffffffffffff" }) },
  ];
}

async function run(orm: MikroORM, variant: Variant, explain = false): Promise<{ ms: number; rows: Record<string, unknown>[] }> {
  const { sql, params } = auditSearchSql(TENANT, variant.query);
  const em = orm.em.fork();
  const { ms, value } = await timed(() => em.execute<Record<string, unknown>[]>(explain ? `explain (format json) ${sql}` : sql, params));
  return { ms, rows: value };
}

export const auditSearch: BenchGroup = {
  name: "audit",
  kind: "stack",
  async run({ stack, options }) {
    const orm = await openDatabase(parseConfig(stack.env).databaseUrl, 2);
    try {
      const loaded = await timed(() => load(orm, options.auditEntries));
      const all = variants(options.auditEntries);
      const plans = await Promise.all(all.map(async (v) => planSummary((await run(orm, v, true)).rows[0]["QUERY PLAN"] as Plan[])));
      for (const v of all) for (let i = 0; i < 3; i++) await run(orm, v);
      progress(`audit search: ${options.auditRuns} runs of each of ${all.length} variants`);
      const ms = all.map(() => [] as number[]);
      const found = all.map(() => 0);
      for (let i = 0; i < options.auditRuns; i++) {
        for (const [index, variant] of all.entries()) {
          const result = await run(orm, variant);
          ms[index].push(result.ms);
          found[index] = result.rows.length;
        }
      }
      const size = `${options.auditEntries.toLocaleString("en-US")} entries`;
      const against = baseline("unfiltered first page p50", percentile(ms[0], 50), "ms");
      const figures: Figure[] = all.map((variant, index) =>
        figure(`Audit search p50, ${variant.name}, ${size}`, percentile(ms[index], 50), "ms", against, `${found[index]} rows; p99 ${percentile(ms[index], 99).toFixed(1)} ms; ${plans[index]}`),
      );
      figures.push(figure(`Audit entries loaded, ${size}`, loaded.ms / 1000, "s", null, "1,000 per INSERT, each sealed by the hash chain's trigger, with every audit index in place"));
      return figures;
    } finally {
      await orm.close();
    }
  },
};
