/**
 * Writers of one tenant that queue for its chain lock do not flush the WAL one after another
 * (migration 0018, src/adapters/postgres/audited-commit.ts): a seal that waited for the lock
 * commits before the flush and says so with a notice, but only in a session that promised to
 * wait for the flush itself; the API's and worker's pools keep that promise before a call returns.
 */
import { randomUUID } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushAfterCounts } from "../../src/adapters/postgres/audited-commit.js";
import { writeAudit } from "../../src/adapters/postgres/audit-store.js";
import { inTransaction } from "../../src/adapters/postgres/database-work.js";
import { openDatabase } from "../../src/adapters/postgres/orm.js";
import { uniqueTenant } from "../support/clients.js";
import { sql, stackConfig } from "../support/stack-access.js";

/** The seal's chain lock (migration 0012): two int4 keys, shown in pg_locks as classid/objid. */
const CHAIN_LOCK_CLASS = 1635083369;
const NOTICE = "files.audit_commit: committed before the flush";

/** A session of its own holding `tenant`'s chain lock until `release()`. */
async function holdChainLock(tenant: string): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: stackConfig().databaseUrl });
  await client.connect();
  await client.query("begin");
  await client.query("select pg_advisory_xact_lock($1, hashtext($2))", [CHAIN_LOCK_CLASS, tenant]);
  return {
    release: async () => {
      await client.query("commit");
      await client.end();
    },
  };
}

/** Until some session waits for `tenant`'s chain lock. */
async function untilWaitingForChain(tenant: string): Promise<void> {
  for (;;) {
    const rows = await sql(
      "select 1 from pg_locks where locktype = 'advisory' and not granted and classid = ? and objid = (hashtext(?)::bigint & 4294967295)::oid and objsubid = 2",
      [CHAIN_LOCK_CLASS, tenant],
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const entry = (tenant: string) => ({ objectId: randomUUID(), action: "DOWNLOAD_URL_ISSUED" as const, actor: { tenantId: tenant, actorId: "flush-test" }, at: new Date() });

async function sealedSequences(tenant: string): Promise<number[]> {
  const rows = await sql<{ chain_sequence: string }>("select chain_sequence from audit_entries_chained where tenant_id = ? order by chain_sequence", [tenant]);
  return rows.map((row) => Number(row.chain_sequence));
}

/** One entry written by a plain session with `options` while `tenant`'s chain lock is held; the notices it got. */
async function noticesOfQueuedWriter(tenant: string, options?: string): Promise<string[]> {
  const holder = await holdChainLock(tenant);
  const client = new pg.Client({ connectionString: stackConfig().databaseUrl, ...(options ? { options } : {}) });
  const notices: string[] = [];
  client.on("notice", (notice) => notices.push(notice.message ?? ""));
  await client.connect();
  try {
    await client.query("begin");
    await client.query(
      `insert into audit_entries (id, tenant_id, object_id, action, actor_id, result, occurred_at, webhooks_dispatched_at)
       values ($1, $2, $3, 'DOWNLOAD_URL_ISSUED', 'flush-test', 'SUCCESS', now(), now())`,
      [randomUUID(), tenant, randomUUID()],
    );
    const committed = client.query("commit");
    await untilWaitingForChain(tenant);
    await holder.release();
    await committed;
    return notices;
  } finally {
    await client.end();
  }
}

describe("audited commits and the WAL flush", () => {
  let orm: MikroORM;

  beforeAll(async () => {
    // As the API and the worker open theirs: with the session limits, the chain on.
    orm = await openDatabase(stackConfig().databaseUrl, 4, stackConfig().database);
  });

  afterAll(async () => {
    await orm?.close();
  });

  it("commits a writer that found the chain lock free synchronously: no notice, no flush of its own", async () => {
    const tenant = uniqueTenant("flush-free");
    const before = flushAfterCounts(orm)!;
    await inTransaction(orm, (em) => writeAudit(em, entry(tenant)));
    expect(flushAfterCounts(orm)).toEqual(before);
    expect(await sealedSequences(tenant)).toEqual([1]);
  });

  it("answers a writer that queued for the chain lock only after a flush that followed its commit", async () => {
    const tenant = uniqueTenant("flush-queued");
    await inTransaction(orm, (em) => writeAudit(em, entry(tenant)));
    const holder = await holdChainLock(tenant);
    const before = flushAfterCounts(orm)!;
    let answered = false;
    const call = inTransaction(orm, (em) => writeAudit(em, entry(tenant))).then(() => (answered = true));
    await untilWaitingForChain(tenant);
    expect(answered).toBe(false);
    await holder.release();
    await call;
    const after = flushAfterCounts(orm)!;
    expect(after.unflushedCommits).toBe(before.unflushedCommits + 1);
    expect(after.flushes).toBeGreaterThan(before.flushes);
    expect(await sealedSequences(tenant)).toEqual([1, 2]);
  });

  it("tells only a session that promised to wait for the flush; any other keeps its synchronous commit", async () => {
    expect(await noticesOfQueuedWriter(uniqueTenant("flush-promise"), "-c files.audit_commit=flush-after")).toEqual([NOTICE]);
    expect(await noticesOfQueuedWriter(uniqueTenant("flush-none"))).toEqual([]);
  });
});
