/**
 * The seal trigger of migration 0012 against the suite's PostgreSQL: every committed entry gets
 * the next sequence of its tenant whoever writes it and however many write at once, the head lock
 * makes no lock-order cycle with writers that lock other rows first, and the migration chains a
 * trail that existed before it.
 */
import type { Knex } from "@mikro-orm/postgresql";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AuditChainReaderStore } from "../../src/adapters/postgres/audit-chain-reader.js";
import { openDatabase } from "../../src/adapters/postgres/orm.js";
import type { AuditCheckpointStore } from "../../src/app/audit/port.js";
import { verifyAuditTrail } from "../../src/app/audit/verify-audit-trail.js";
import { uniqueTenant } from "../support/clients.js";
import { sql, stackConfig, withDb } from "../support/stack-access.js";

const insertEntry = (db: Knex | Knex.Transaction, tenant: string, action: string) =>
  db.raw(
    `insert into audit_entries (id, tenant_id, object_id, action, actor_id, result, details, occurred_at, webhooks_dispatched_at)
     values (?, ?, ?, ?, 'seal-test', 'SUCCESS', '{"n": 1.50}', now(), now())`,
    [randomUUID(), tenant, randomUUID(), action],
  );

const noCheckpoints: AuditCheckpointStore = { from: async () => [], latest: async () => undefined, page: async () => [], insert: async (c) => c, tenantsToCheckpoint: async () => [] };
const noKeys = { ring: new Map([["unused", generateKeyPairSync("ed25519").publicKey]]) };

/** Until a session waits for the advisory lock on `resource` (seen from a connection of its own: both of the pool's are taken). */
async function untilWaitingOn(resource: number): Promise<void> {
  for (;;) {
    const rows = await sql("select 1 from pg_locks where locktype = 'advisory' and objid = ? and not granted", [resource]);
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function chainOf(tenant: string) {
  return sql<{ action: string; chain_sequence: string }>("select action, chain_sequence from audit_entries_chained where tenant_id = ? order by chain_sequence", [tenant]);
}

describe("the audit seal trigger", () => {
  it("gives concurrent writers of one tenant one gapless order that verifies", async () => {
    const tenant = uniqueTenant("seal-concurrent");
    await withDb(async (orm) => {
      const reader = new AuditChainReaderStore(orm);
      const knex = orm.em.getConnection().getKnex();
      await Promise.all(
        Array.from({ length: 20 }, (_, writer) =>
          knex.transaction(async (trx) => {
            for (let i = 0; i < 5; i++) await insertEntry(trx, tenant, `W${writer}`);
          }),
        ),
      );
      const rows = await chainOf(tenant);
      expect(rows.map((r) => Number(r.chain_sequence))).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      // A transaction's entries are sealed together at its commit: the chain interleaves writers by commit.
      for (let at = 0; at < 100; at += 5) expect(new Set(rows.slice(at, at + 5).map((r) => r.action)).size).toBe(1);
      const report = await verifyAuditTrail({ chain: reader, checkpoints: noCheckpoints, keys: noKeys }, tenant, { fromSequence: 0, toSequence: 0 });
      expect(report).toMatchObject({ intact: true, firstSequence: 1, lastSequence: 100, entriesChecked: 100 });
    });
  });

  it("does not deadlock a writer that locks another row after its entry with one that locks it before", async () => {
    const tenant = uniqueTenant("seal-lock-order");
    const resource = Math.floor(Math.random() * 1e9);
    await withDb(async (orm) => {
      const knex = orm.em.getConnection().getKnex();
      let entryWritten!: () => void;
      const written = new Promise<void>((resolve) => (entryWritten = resolve));
      let resourceHeld!: () => void;
      const held = new Promise<void>((resolve) => (resourceHeld = resolve));
      // A writes its entry, then waits for a row lock B holds. B writes its entry while holding
      // it. A head lock taken at insert would make each wait for the other (PostgreSQL then
      // aborts one with 40P01); taken at commit, B commits first and A follows.
      const a = knex.transaction(async (trx) => {
        await insertEntry(trx, tenant, "A");
        entryWritten();
        await held;
        await trx.raw("select pg_advisory_xact_lock(?)", [resource]);
      });
      const b = knex.transaction(async (trx) => {
        await trx.raw("select pg_advisory_xact_lock(?)", [resource]);
        await written;
        resourceHeld();
        await untilWaitingOn(resource);
        await insertEntry(trx, tenant, "B");
      });
      await Promise.all([a, b]);
    });
    expect((await chainOf(tenant)).map((r) => `${r.action}${r.chain_sequence}`)).toEqual(["B1", "A2"]);
  });

  it("chains the trail that existed before migration 0012, in time order, and anchors it", async () => {
    const database = `chain_backfill_${process.pid}_${Date.now()}`;
    await sql(`create database ${database}`);
    const url = new URL(stackConfig().databaseUrl);
    url.pathname = `/${database}`;
    const orm = await openDatabase(url.toString(), 2);
    try {
      await orm.getMigrator().up({ to: "0011-tenant-quotas" });
      const knex = orm.em.getConnection().getKnex();
      await knex.raw(
        `insert into audit_entries (id, tenant_id, object_id, action, actor_id, result, occurred_at, correlation_id)
         select gen_random_uuid(), 't' || (g % 2), gen_random_uuid(), 'OLD' || g, 'old', 'SUCCESS', now() - (100 - g) * interval '1 minute', 'c'
           from generate_series(1, 10) g`,
      );
      await orm.getMigrator().up();
      await insertEntry(knex, "t1", "NEW");
      const rows = (await knex.raw("select action, chain_sequence from audit_entries_chained where tenant_id = 't1' order by chain_sequence")).rows;
      expect(rows.map((r: { action: string; chain_sequence: string }) => `${r.action}:${r.chain_sequence}`)).toEqual(["OLD1:1", "OLD3:2", "OLD5:3", "OLD7:4", "OLD9:5", "NEW:6"]);
      const report = await verifyAuditTrail({ chain: new AuditChainReaderStore(orm), checkpoints: noCheckpoints, keys: noKeys }, "t1", { fromSequence: 0, toSequence: 0 });
      expect(report).toMatchObject({ intact: true, lastSequence: 6, anchoredThrough: 5 });
      const other = await verifyAuditTrail({ chain: new AuditChainReaderStore(orm), checkpoints: noCheckpoints, keys: noKeys }, "t0", { fromSequence: 0, toSequence: 0 });
      expect(other).toMatchObject({ intact: true, lastSequence: 5, anchoredThrough: 5 });
    } finally {
      await orm.close();
      await sql(`drop database ${database}`);
    }
  });
});
