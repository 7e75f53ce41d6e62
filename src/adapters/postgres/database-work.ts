import { ConnectionException, DriverException, UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { AppError } from "../../domain/errors.js";

/** Work of one call, on an EntityManager of its own. */
export type DatabaseWork<T> = (em: EntityManager) => Promise<T>;

/** Runs `work` on a fresh EntityManager; its database errors leave as domain errors. */
export async function withDatabase<T>(orm: MikroORM, work: DatabaseWork<T>): Promise<T> {
  try {
    return await work(orm.em.fork());
  } catch (error) {
    translateDbError(error);
  }
}

/** The same in one transaction: committed when `work` resolves, rolled back when it throws. */
export function inTransaction<T>(orm: MikroORM, work: DatabaseWork<T>): Promise<T> {
  return withDatabase(orm, (em) => em.transactional(work));
}

/**
 * Database errors leave the adapter as domain errors with the original as `cause`: a lost
 * database is `unavailable` (callers may retry), anything else stays unexpected. A unique
 * violation passes unchanged, for the store that knows which fact it means.
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
  if (error instanceof DriverException) throw new AppError("INTERNAL", "database error", { cause: error });
  throw error;
}
