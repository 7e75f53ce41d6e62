import { ConnectionException, DriverException, UniqueConstraintViolationException } from "@mikro-orm/core";
import { AppError } from "../../domain/errors.js";

/**
 * Database errors leave the adapter as domain errors with the original as `cause`: a lost
 * database is `unavailable` (callers may retry), anything else stays unexpected.
 */
export function translateDbError(error: unknown): never {
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
