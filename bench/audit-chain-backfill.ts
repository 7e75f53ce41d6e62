/**
 * How long the chain's migrations take on a big trail: a database of its own on the stack's
 * PostgreSQL, migrated to 0011, given N existing entries over TENANTS tenants (no chain yet), then
 * migrated through 0012, whose backfill chains every row per tenant in (occurred_at, id) order, and
 * 0013, which moves the links into audit_chain_links. Entries chained per second against inserting the same rows (one INSERT per
 * tenant, before the migration). The backfilled chain of one tenant is then verified.
 */
import { MikroORM } from "@mikro-orm/postgresql";
import { openDatabase, ormOptions } from "../src/adapters/postgres/orm.js";
import { AuditChainReaderStore } from "../src/adapters/postgres/audit-chain-reader.js";
import { PostgresAuditCheckpointStore } from "../src/adapters/postgres/audit-checkpoint-store.js";
import { verifyAuditTrail } from "../src/app/audit/verify-audit-trail.js";
import { insertGeneratedEntries } from "./audit-entries.js";
import { timed } from "./stats.js";
import { progress } from "./support.js";

const TENANTS = 10;
const BEFORE_CHAIN = "0011-tenant-quotas";
const CHAIN = "0013-audit-chain-links";

export interface Backfill {
  entries: number;
  tenants: number;
  insertSeconds: number;
  migrationSeconds: number;
  unsealed: number;
  verified: { intact: boolean; checked: number; anchoredThrough: number };
}

export async function measureBackfill(databaseUrl: string, entries: number): Promise<Backfill> {
  const name = `bench_backfill_${process.pid}`;
  const admin = await openDatabase(databaseUrl, 1);
  await admin.em.fork().execute(`create database ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const orm = await MikroORM.init(ormOptions(url.toString(), 2));
  try {
    await orm.getMigrator().up({ to: BEFORE_CHAIN });
    const perTenant = Math.ceil(entries / TENANTS);
    const tenant = (t: number) => `bench-backfill-${t}`;
    progress(`audit-chain: ${(perTenant * TENANTS).toLocaleString("en-US")} entries over ${TENANTS} tenants before migration ${CHAIN}`);
    const inserted = await timed(async () => {
      for (let t = 0; t < TENANTS; t++) await insertGeneratedEntries(orm.em.fork(), tenant(t), 1, perTenant);
    });
    await orm.em.fork().execute("vacuum analyze audit_entries");
    progress(`audit-chain: migrations through ${CHAIN} (backfill, then the links table)`);
    const migrated = await timed(() => orm.getMigrator().up({ to: CHAIN }));
    if (!migrated.value.some((m) => m.name === CHAIN)) throw new Error(`${CHAIN} did not run: ${migrated.value.map((m) => m.name).join(", ")}`);
    const [row] = await orm.em.fork().execute<{ unsealed: string }[]>("select count(*) as unsealed from audit_entries_chained where chain_sequence is null");
    const deps = { chain: new AuditChainReaderStore(orm), checkpoints: new PostgresAuditCheckpointStore(orm), keys: { ring: new Map() } };
    const report = await verifyAuditTrail(deps, tenant(0), { fromSequence: 0, toSequence: 0 });
    return {
      entries: perTenant * TENANTS,
      tenants: TENANTS,
      insertSeconds: inserted.ms / 1000,
      migrationSeconds: migrated.ms / 1000,
      unsealed: Number(row.unsealed),
      verified: { intact: report.intact, checked: report.entriesChecked, anchoredThrough: report.anchoredThrough },
    };
  } finally {
    await orm.close();
    await admin.em.fork().execute(`drop database if exists ${name}`);
    await admin.close();
  }
}
