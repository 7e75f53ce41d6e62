/**
 * Durable commits for the writers of one tenant without flushing the WAL one writer at a time.
 *
 * The seal trigger holds the tenant's chain lock until the commit ends, and a synchronous commit
 * ends after the WAL flush, so the tenant's concurrent writers each waited for the previous one's
 * disk write. Sessions of the API's and worker's pools promise (`files.audit_commit =
 * flush-after`) to wait for the flush themselves: a seal that had to wait for the lock then
 * commits without waiting for the flush, releasing the lock at once, and says so with a notice
 * (migration 0018). The notice reaches the client before the commit's answer, so when a database
 * call's work returns, the pool knows whether one of its commits is not yet on disk; the call
 * then waits for a flush (one for every call waiting at that moment: WalFlusher) before it
 * answers. A call is answered only once what it committed is on disk, as before.
 *
 * The pool does not know which call a notice belongs to: any such notice during a call makes the
 * call wait for a flush. That costs a call nothing more than its wait while writers contend.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { WalFlusher } from "./wal-flusher.js";

/** The startup options that make the promise (and make sure notices are sent to the client). */
export const AUDIT_COMMIT_FLUSH_AFTER = ["files.audit_commit=flush-after", "client_min_messages=notice"];

/** The notice of migration 0018's seal. */
const UNFLUSHED_COMMIT = "files.audit_commit: committed before the flush";

/**
 * A transactional logical message: its transaction has an id and writes WAL, so its synchronous
 * commit waits for the flush of everything before it. It carries nothing; logical decoding
 * clients see an empty message with this prefix.
 */
const FLUSH_STATEMENT = "select pg_logical_emit_message(true, 'files.audit_commit', '')";

/** What one pool heard: how many of its commits were answered before their flush. */
export class UnflushedCommits {
  count = 0;

  /** knex's `pool.afterCreate`: listens on each new connection. */
  readonly afterCreate = (connection: { on(event: "notice", listener: (notice: { message?: string }) => void): void }, done: (error: Error | null, connection: unknown) => void): void => {
    connection.on("notice", (notice) => {
      if (notice.message === UNFLUSHED_COMMIT) this.count++;
    });
    done(null, connection);
  };
}

interface FlushAfter {
  unflushed: UnflushedCommits;
  flusher: WalFlusher;
  flushes: number;
}

const pools = new WeakMap<MikroORM, FlushAfter>();

/** For a pool whose sessions made the promise: from now on its calls keep it. */
export function flushAfterUnflushedCommits(orm: MikroORM, unflushed: UnflushedCommits): void {
  const knex = orm.em.getConnection().getKnex();
  const pool: FlushAfter = {
    unflushed,
    flushes: 0,
    flusher: new WalFlusher(async () => {
      await knex.raw(FLUSH_STATEMENT);
      pool.flushes++;
    }),
  };
  pools.set(orm, pool);
}

/** A pool's commits answered before their flush and the flushes it waited for since it opened (undefined: no promise). */
export function flushAfterCounts(orm: MikroORM): { unflushedCommits: number; flushes: number } | undefined {
  const pool = pools.get(orm);
  return pool && { unflushedCommits: pool.unflushed.count, flushes: pool.flushes };
}

/** Runs one database call's work; returns (or throws) once what it committed is on disk. */
export async function withFlushedCommits<T>(orm: MikroORM, work: () => Promise<T>): Promise<T> {
  const pool = pools.get(orm);
  if (!pool) return work();
  const before = pool.unflushed.count;
  let result: T;
  try {
    result = await work();
  } catch (error) {
    // A call that failed after committing may still have made its commits visible.
    if (pool.unflushed.count !== before) await pool.flusher.flush().catch(() => undefined);
    throw error;
  }
  if (pool.unflushed.count !== before) await pool.flusher.flush();
  return result;
}
