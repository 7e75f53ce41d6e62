import { ConnectionException, DriverException, UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { deadlineExceeded, type CallScope } from "../../domain/call-scope.js";
import { AppError } from "../../domain/errors.js";
import { withFlushedCommits } from "./audited-commit.js";

/** Work of one call, on an EntityManager of its own. */
export type DatabaseWork<T> = (em: EntityManager) => Promise<T>;

/**
 * Runs `work` on a fresh EntityManager; its database errors leave as domain errors. It returns
 * once what it committed is on disk (audited-commit.ts).
 */
export async function withDatabase<T>(orm: MikroORM, work: DatabaseWork<T>): Promise<T> {
  try {
    return await withFlushedCommits(orm, () => work(orm.em.fork()));
  } catch (error) {
    translateDbError(error);
  }
}

/** The same in one transaction: committed when `work` resolves, rolled back when it throws. */
export function inTransaction<T>(orm: MikroORM, work: DatabaseWork<T>): Promise<T> {
  return withDatabase(orm, (em) => em.transactional(work));
}

/**
 * `work` in one transaction bounded by the call's remaining time. PostgreSQL takes no signal, so
 * the bound is `statement_timeout` for this transaction only (SET LOCAL; the pooled session keeps
 * its own), never above the session's: a statement still waiting (on a lock, say) when the
 * deadline passes is cancelled and the transaction rolled back, instead of committing after the
 * caller was told DEADLINE_EXCEEDED. That cancellation (SQLSTATE 57014) is the deadline. Without
 * a deadline, the plain transaction.
 */
export function inCallTransaction<T>(orm: MikroORM, call: CallScope | undefined, work: DatabaseWork<T>): Promise<T> {
  const remaining = call?.remainingMs();
  if (remaining === undefined) return inTransaction(orm, work);
  const sessionMs = sessionStatementTimeoutMs(orm);
  const timeoutMs = statementTimeoutWithin(remaining, sessionMs);
  // Capped by the session's own bound, a cancellation is that bound, not the deadline.
  const cutByDeadline = timeoutMs !== sessionMs;
  return withDatabase(orm, async (em) => {
    try {
      return await em.transactional(async (tx) => {
        await tx.getConnection().execute(`set local statement_timeout = ${timeoutMs}`, [], "run", tx.getTransactionContext());
        return work(tx);
      });
    } catch (error) {
      if (cutByDeadline && (error as { code?: string }).code === STATEMENT_CANCELLED) throw deadlineExceeded(error);
      throw error;
    }
  });
}

/** query_canceled: statement_timeout, or a cancel request (which this service never sends otherwise). */
const STATEMENT_CANCELLED = "57014";

/** Whole milliseconds, at least 1 (0 would disable the timeout), at most the session's bound (0: none). */
export function statementTimeoutWithin(remainingMs: number, sessionMs: number | undefined): number {
  const bound = Math.max(1, Math.ceil(remainingMs));
  return sessionMs ? Math.min(bound, sessionMs) : bound;
}

/** The statement_timeout every pooled session starts with (orm.ts), if any. */
function sessionStatementTimeoutMs(orm: MikroORM): number | undefined {
  const driverOptions = orm.config.get("driverOptions") as { connection?: { statement_timeout?: number } } | undefined;
  return driverOptions?.connection?.statement_timeout;
}

/**
 * Every pooled connection stayed busy for the pool's whole wait (`acquireTimeoutMillis`, orm.ts):
 * an overload that passes, not a fault of the call. Knex's KnexTimeoutError, known by its message,
 * which a MikroORM DriverException wrapping it keeps.
 */
function waitedOutPool(error: unknown): boolean {
  return /^Knex: Timeout acquiring a connection/.test(String((error as Error)?.message));
}

/**
 * Database errors leave the adapter as domain errors with the original as `cause`: a lost
 * database, or one too busy to lend a connection in time, is `unavailable` (callers may retry),
 * anything else stays unexpected. A unique violation passes unchanged, for the store that knows
 * which fact it means.
 */
function translateDbError(error: unknown): never {
  if (error instanceof AppError) throw error;
  if (error instanceof UniqueConstraintViolationException) throw error;
  const code = (error as { code?: string }).code ?? "";
  const connectionLost =
    error instanceof ConnectionException ||
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|57P01|57P03|08\d\d\d)$/.test(code) ||
    /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED/i.test(String((error as Error).message));
  if (connectionLost) {
    throw new AppError("DEPENDENCY_UNAVAILABLE", "database unavailable; retry shortly", { cause: error });
  }
  if (waitedOutPool(error)) {
    throw new AppError("DEPENDENCY_UNAVAILABLE", "database busy: no connection free within the pool's wait; retry shortly", { cause: error });
  }
  if (error instanceof DriverException) throw new AppError("INTERNAL", "database error", { cause: error });
  throw error;
}
