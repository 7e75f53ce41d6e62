/**
 * Audit inserts per second with the hash chain against the same inserts without it, in the same
 * run: the product's writer (writeAudit in a transaction of its own, as GetDownloadUrl audits
 * DOWNLOAD_URL_ISSUED through PostgresStoredObjectStore.audit) into one tenant, from 1 writer and
 * from 16 concurrent writers. The chain-off pool sets `files.audit_chain = off` on its sessions,
 * as AUDIT_HASH_CHAIN=off does for the API's (src/adapters/postgres/orm.ts). Turns alternate, the
 * order rotating each round, so drift of a shared machine hits both alike.
 *
 * The seal trigger, deferred to the commit, takes the tenant's chain lock (an advisory lock) there
 * and holds it through the commit, so the writers of one tenant commit one at a time (those that
 * queued for it commit before the WAL flush and wait for it after: audited-commit.ts); a sampler
 * counts how many sessions wait on a lock.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { randomUUID } from "node:crypto";
import { writeAudit } from "../src/adapters/postgres/audit-store.js";
import { inTransaction } from "../src/adapters/postgres/database-work.js";
import { openDatabase } from "../src/adapters/postgres/orm.js";
import type { Config } from "../src/config/config.js";
import { cpuDelta, cpuSnapshot } from "./proc-cpu.js";
import { progress, sleep } from "./support.js";
import { mean, throughput } from "./stats.js";

export const WRITER_COUNTS = [1, 16] as const;
const SAMPLE_MS = 20;

export interface InsertTurns {
  /** Inserts per second of each turn, by writer count. */
  on: Record<number, number[]>;
  off: Record<number, number[]>;
  /** Mean sessions waiting on a lock during the 16-writer turns. */
  lockWaiters: { on: number; off: number };
  /** PostgreSQL's CPU per insert over all turns, by writer count (ms): steadier than rates bound by the commit's flush. */
  postgresMsPerInsert: { on: Record<number, number>; off: Record<number, number> };
}

/** One DOWNLOAD_URL_ISSUED entry in its own transaction, as the API writes it. */
function writeOne(orm: MikroORM, tenantId: string): Promise<void> {
  const requestId = randomUUID();
  return inTransaction(orm, (em) =>
    writeAudit(em, { objectId: randomUUID(), action: "DOWNLOAD_URL_ISSUED", actor: { tenantId, actorId: "bench-writer", requestId }, details: { disposition: "attachment" }, at: new Date() }),
  );
}

/** Sessions of this database waiting on a lock, sampled while `work` runs; their mean. */
async function lockWaitersDuring(sampler: MikroORM, work: () => Promise<number>): Promise<{ rate: number; waiting: number }> {
  const samples: number[] = [];
  let running = true;
  const sampling = (async () => {
    const em = sampler.em.fork();
    while (running) {
      const [row] = await em.execute<{ waiting: string }[]>("select count(*) as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
      samples.push(Number(row.waiting));
      await sleep(SAMPLE_MS);
    }
  })();
  const rate = await work();
  running = false;
  await sampling;
  return { rate, waiting: samples.length ? mean(samples) : NaN };
}

export async function measureInserts(config: Config, seconds: number, rounds: number): Promise<InsertTurns> {
  const pool = Math.max(...WRITER_COUNTS);
  const open = (auditHashChain: boolean) => openDatabase(config.databaseUrl, pool, { ...config.database, poolMax: pool, auditHashChain });
  const orms = { on: await open(true), off: await open(false) };
  const sampler = await openDatabase(config.databaseUrl, 1);
  // A tenant for each side: the chain-off rows stay out of the chained tenant's trail.
  const suffix = randomUUID().slice(0, 8);
  const tenants = { on: `bench-chain-on-${suffix}`, off: `bench-chain-off-${suffix}` };
  const result: InsertTurns = { on: {}, off: {}, lockWaiters: { on: 0, off: 0 }, postgresMsPerInsert: { on: {}, off: {} } };
  const waiters = { on: [] as number[], off: [] as number[] };
  const postgres = { on: {} as Record<number, { ms: number; inserts: number }>, off: {} as Record<number, { ms: number; inserts: number }> };
  try {
    for (const side of ["on", "off"] as const) for (let i = 0; i < 20; i++) await writeOne(orms[side], tenants[side]); // warm-up: pools, heads
    for (let round = 0; round < rounds; round++) {
      for (const writers of WRITER_COUNTS) {
        const sides = round % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const);
        for (const side of sides) {
          const before = cpuSnapshot();
          const measured = await lockWaitersDuring(sampler, () => throughput(seconds, writers, () => writeOne(orms[side], tenants[side])));
          const cpu = (postgres[side][writers] ??= { ms: 0, inserts: 0 });
          cpu.ms += cpuDelta(before, cpuSnapshot()).postgres;
          cpu.inserts += measured.rate * seconds;
          (result[side][writers] ??= []).push(measured.rate);
          if (writers === pool) waiters[side].push(measured.waiting);
          progress(`audit-chain: inserts, chain ${side}, ${writers} writer(s), round ${round + 1}/${rounds}: ${measured.rate.toFixed(0)}/s, ${measured.waiting.toFixed(1)} sessions waiting on a lock`);
        }
      }
    }
    result.lockWaiters = { on: mean(waiters.on), off: mean(waiters.off) };
    for (const side of ["on", "off"] as const) {
      for (const writers of WRITER_COUNTS) result.postgresMsPerInsert[side][writers] = postgres[side][writers]!.ms / postgres[side][writers]!.inserts;
    }
    return result;
  } finally {
    await Promise.all([orms.on.close(), orms.off.close(), sampler.close()]);
  }
}
