/**
 * A pool whose every connection stays busy past its wait (acquireTimeoutMillis, 3 s) answers
 * `unavailable`, which clients retry, not `internal`: under a burst of uploads on a starved
 * machine, complete once answered 500 where the database was merely slow to lend a connection.
 * Both shapes of the failure: a query (MikroORM wraps Knex's timeout) and a transaction's begin
 * (Knex throws it bare).
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction, withDatabase } from "../../src/adapters/postgres/database-work.js";
import { openDatabase } from "../../src/adapters/postgres/orm.js";
import { AppError } from "../../src/domain/errors.js";
import { stackConfig } from "../support/stack-access.js";

let orm: MikroORM;
let releaseHolder: () => void;
let holder: Promise<unknown>;

beforeAll(async () => {
  orm = await openDatabase(stackConfig().databaseUrl, 1);
  // The pool's only connection, held until the tests are done.
  const held = new Promise<void>((resolve) => (releaseHolder = resolve));
  let holding!: () => void;
  const taken = new Promise<void>((resolve) => (holding = resolve));
  holder = inTransaction(orm, async (em) => {
    await em.getConnection().execute("select 1", [], "all", em.getTransactionContext());
    holding();
    await held;
  });
  await taken;
});

afterAll(async () => {
  releaseHolder?.();
  await holder;
  await orm?.close(true);
});

async function failureOf(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("a database with no connection free in time", () => {
  it("answers a query DEPENDENCY_UNAVAILABLE", async () => {
    const error = await failureOf(withDatabase(orm, (em) => em.getConnection().execute("select 1")));
    expect(error.reason).toBe("DEPENDENCY_UNAVAILABLE");
    expect(error.message).toMatch(/database busy/);
  });

  it("answers a transaction DEPENDENCY_UNAVAILABLE", async () => {
    const error = await failureOf(inTransaction(orm, (em) => em.getConnection().execute("select 1", [], "all", em.getTransactionContext())));
    expect(error.reason).toBe("DEPENDENCY_UNAVAILABLE");
  });
});
