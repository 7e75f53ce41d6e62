/**
 * 7. A three-filter customer list (tier__in, score__gte, city__icontains) for one tenant holding
 * all N customers, as our filter parser and SQL compiler build it, against (A) the best
 * hand-written SQL for the same result and (B) our query with index scans switched off. Runs
 * alternate between the three, each in its own transaction (B needs SET LOCAL).
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { parseConfig } from "../src/config/config.js";
import { expressionIndexName } from "../src/adapters/postgres/custom-field-indexes.js";
import { compileFilterSql, type SqlFragment } from "../src/adapters/postgres/custom-field-filter-sql.js";
import { expressionIndexDdl } from "../src/adapters/postgres/custom-field-index-ddl.js";
import { openDatabase } from "../src/adapters/postgres/orm.js";
import type { FieldDefinition } from "../src/domain/customfields/definition.js";
import { parseFilters } from "../src/domain/customfields/filters.js";
import type { BenchGroup } from "./context.js";
import { baseline, figure } from "./figure.js";
import { planSummary, type Plan } from "./query-plan.js";
import { percentile, timed } from "./stats.js";
import { progress } from "./support.js";

const TENANT = "bench-filter";
const WARM_UP_RUNS = 5;
/** The naive hand-written form only feeds a note: it is slow, and 50 runs of it would add nothing. */
const NAIVE_RUNS = 5;
const ORDER = "order by created_at desc, id desc limit 50";
/** Berlin, Bern and Oberhausen contain "ber": 3 cities in 10. */
const CITIES = ["Berlin", "Bern", "Oberhausen", "Hamburg", "Munich", "Paris", "Lisbon", "Madrid", "Vienna", "Zurich"];

const definitions: Pick<FieldDefinition, "fieldKey" | "fieldType" | "deletedAt" | "indexed">[] = [
  { fieldKey: "tier", fieldType: "SELECT", indexed: false },
  { fieldKey: "score", fieldType: "NUMBER", indexed: true },
  { fieldKey: "city", fieldType: "STRING", indexed: false },
];
const query = { tier__in: "gold,silver", score__gte: "50", city__icontains: "ber" };

interface Variant {
  name: string;
  sql: string;
  params: SqlFragment["params"];
  /** Statements run in the same transaction before the query. */
  setup: string[];
}

/**
 * The hand-written query takes tier by containment: the natural `->>'tier' in (...)` makes the
 * planner misjudge the selectivity and sort a sequential scan (measured as `naive` for the notes).
 * Plain `->>` casts are fine here since every stored value has its type.
 */
function handWritten(tierCondition: string): string {
  return `select id from customers where tenant_id = ?
    and ${tierCondition}
    and (custom_fields->>'score')::numeric >= 50
    and custom_fields->>'city' ilike '%ber%' ${ORDER}`;
}

function variants(): { measured: Variant[]; naive: Variant } {
  const filter = compileFilterSql(parseFilters(query, definitions));
  const ours = { sql: `select id from customers where tenant_id = ? and ${filter.sql} ${ORDER}`, params: [TENANT, ...filter.params] };
  const noIndexes = ["set local enable_indexscan = off", "set local enable_bitmapscan = off", "set local enable_indexonlyscan = off"];
  const contained = `(custom_fields @> '{"tier": "gold"}' or custom_fields @> '{"tier": "silver"}')`;
  return {
    measured: [
      { name: "ours", ...ours, setup: [] },
      { name: "hand-written", sql: handWritten(contained), params: [TENANT], setup: [] },
      { name: "no indexes", ...ours, setup: noIndexes },
    ],
    naive: { name: "naive", sql: handWritten("custom_fields->>'tier' in ('gold', 'silver')"), params: [TENANT], setup: [] },
  };
}

async function load(orm: MikroORM, customers: number): Promise<void> {
  const em = orm.em.fork();
  await em.execute(
    `insert into customers (id, tenant_id, name, email, custom_fields, version, created_at, updated_at)
     select gen_random_uuid(), ?, 'Customer ' || g, 'customer' || g || '@example.com',
       jsonb_build_object(
         'tier', (array['gold', 'silver', 'bronze'])[1 + g % 3],
         'score', ((g::bigint * 7919) % 10000) / 100.0,
         'city', (array[${CITIES.map((c) => `'${c}'`).join(", ")}])[1 + (g::bigint * 37) % 10]),
       1, timestamptz '2025-01-01' + g * interval '1 second', timestamptz '2025-01-01' + g * interval '1 second'
     from generate_series(1, ?) g`,
    [TENANT, customers],
  );
  await em.execute(expressionIndexDdl("customers", "custom_fields", "score", "NUMBER", expressionIndexName("customers", "score", "num")));
  await em.execute("analyze customers");
}

type Row = Record<string, unknown>;

/** Runs `variant` in its own transaction; only the query itself is timed. */
async function runVariant(orm: MikroORM, variant: Variant, explain = false): Promise<{ ms: number; rows: Row[] }> {
  return orm.em.fork().transactional(async (tx) => {
    for (const statement of variant.setup) await tx.execute(statement);
    const sql = explain ? `explain (format json) ${variant.sql}` : variant.sql;
    const { ms, value } = await timed(() => tx.execute<Row[]>(sql, variant.params));
    return { ms, rows: value };
  });
}

const idsOf = async (orm: MikroORM, variant: Variant) => (await runVariant(orm, variant)).rows.map((r) => r.id).join();
const planOf = async (orm: MikroORM, variant: Variant) => planSummary((await runVariant(orm, variant, true)).rows[0]["QUERY PLAN"] as Plan[]);

async function samples(orm: MikroORM, variants: Variant[], runs: number): Promise<number[][]> {
  for (const v of variants) for (let i = 0; i < WARM_UP_RUNS; i++) await runVariant(orm, v);
  const ms = variants.map(() => [] as number[]);
  for (let run = 0; run < runs; run++) {
    for (const [index, variant] of variants.entries()) ms[index].push((await runVariant(orm, variant)).ms);
  }
  return ms;
}

export const filterQuery: BenchGroup = {
  name: "filter",
  kind: "stack",
  async run({ stack, options }) {
    const orm = await openDatabase(parseConfig(stack.env).databaseUrl, 2);
    try {
      progress(`filter query: loading ${options.customers} customers`);
      const loaded = await timed(() => load(orm, options.customers));
      const { measured, naive } = variants();
      const ids = await Promise.all([...measured, naive].map((v) => idsOf(orm, v)));
      const plans = await Promise.all([...measured, naive].map((v) => planOf(orm, v)));
      progress(`filter query: ${options.filterRuns} runs of each of ${measured.length} variants`);
      const [ours, hand, none] = await samples(orm, measured, options.filterRuns);
      const [naiveMs] = await samples(orm, [naive], NAIVE_RUNS);
      const same = ids.every((list) => list === ids[0]) ? "all variants return the same 50 ids" : "THE IDS DIFFER between variants";
      const size = `${options.customers.toLocaleString("en-US")} customers`;
      const row = (p: 50 | 99, against: number[], name: string, notes: string) =>
        figure(`Filter query p${p}, 3 filters, ${size}`, percentile(ours, p), "ms", baseline(`${name} p${p}`, percentile(against, p), "ms"), notes);
      return [
        row(50, hand, "hand-written SQL", `${same}; ours: ${plans[0]}; hand-written: ${plans[1]}`),
        row(99, hand, "hand-written SQL", `n=${options.filterRuns}; naive ->> IN form: p50 ${percentile(naiveMs, 50).toFixed(0)} ms (n=${NAIVE_RUNS}), ${plans[3]}`),
        row(50, none, "ours, no index scans", `no index scans: ${plans[2]}`),
        row(99, none, "ours, no index scans", `n=${options.filterRuns}; load + index + analyze ${(loaded.ms / 1000).toFixed(1)} s`),
      ];
    } finally {
      await orm.close();
    }
  },
};
