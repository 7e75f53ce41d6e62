/**
 * Index builds of `indexed` custom fields are capped per tenant and run off the request path
 * (issue #11, "Unbounded index builds"): the save stores the definition and answers; the worker's
 * builder creates the index later, one at a time, on a connection of its own, and recovers from an
 * INVALID index that a killed build leaves behind.
 *
 * Every CREATE INDEX CONCURRENTLY waits for transactions holding a write lock on the table. The
 * test holds one open on `customers` throughout the saves, so a save that built its index in the
 * request (as before) could not answer until the test let go.
 */
import type { Knex, MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../src/adapters/postgres/orm.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { indexValidity, waitForValidIndexes } from "../support/custom-field-indexes.js";
import { reasonOf } from "../support/errors.js";

let orm: MikroORM;
beforeAll(async () => {
  orm = await openDatabase(inject("stackEnv").DATABASE_URL, 3);
});
afterAll(async () => {
  await orm?.close();
});

/** Twelve keys (field keys are letters and underscores); the default cap is 10. */
const KEYS = [..."abcdefghijkl"].map((letter) => `ixcap_${letter}`);
const indexName = (key: string) => `customers_cf_num_${key}`;

interface Build {
  pid: number;
  query: string;
}

/** Index builds under way in the database, whoever runs them. */
async function buildsUnderWay(): Promise<Build[]> {
  return orm.em.fork().execute<Build[]>(
    "select pid, query from pg_stat_activity where state = 'active' and query ilike 'CREATE INDEX CONCURRENTLY%' and pid <> pg_backend_pid()",
  );
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("custom field index builds", () => {
  let token: string;
  let accepted: { id: string; fieldKey: string }[] = [];

  it("refuses indexed fields past the tenant's cap, answers the others before any index exists, serves other calls meanwhile, and builds them later", async () => {
    token = await tokenFor(uniqueTenant("ixcap"));
    const blocker: Knex.Transaction = await orm.em.getConnection().getKnex().transaction();
    try {
      await blocker.raw("lock table customers in row exclusive mode");

      const saves = await Promise.all(
        KEYS.map((fieldKey) =>
          rest("POST", "/api/v1/custom-fields", { token, body: { entityType: "Customer", fieldKey, fieldLabel: fieldKey, fieldType: "number", indexed: true } }),
        ),
      );
      const refused = saves.filter((s) => s.status !== 200);
      accepted = saves.filter((s) => s.status === 200).map((s) => s.body.fieldDefinition);
      expect(accepted).toHaveLength(10);
      expect(refused).toHaveLength(2);
      for (const refusal of refused) {
        expect(refusal.status).toBe(400);
        expect(refusal.body.code).toBe("failed_precondition");
        expect(reasonOf(refusal.body)).toBe("INDEXED_FIELD_LIMIT_REACHED");
      }

      // The builder has started one, and it waits for the test's transaction.
      const [build] = await eventually("an index build", async () => {
        const builds = await buildsUnderWay();
        return builds.length > 0 ? builds : undefined;
      });
      expect(await buildsUnderWay()).toHaveLength(1);

      // Requests are served while it waits: reads, a filtered list, another save.
      const list = await rest("GET", "/api/v1/custom-fields/Customer", { token });
      expect(list.status).toBe(200);
      expect(list.body.fieldDefinitions).toHaveLength(10);
      const filtered = await rest("GET", `/api/v1/customers?${accepted[0].fieldKey}__gte=1`, { token });
      expect(filtered.status, JSON.stringify(filtered.body)).toBe(200);
      const plain = await rest("POST", "/api/v1/custom-fields", { token, body: { entityType: "Customer", fieldKey: "ixcap_plain", fieldLabel: "Plain", fieldType: "number" } });
      expect(plain.status).toBe(200);
      const validity = await indexValidity(orm, accepted.map((d) => indexName(d.fieldKey)));
      expect([...validity.values()].filter(Boolean)).toEqual([]);

      // A build killed half-way leaves an INVALID index behind.
      const killedIndex = /CONCURRENTLY IF NOT EXISTS (\w+)/.exec(build.query)?.[1] ?? "";
      await orm.em.fork().execute("select pg_cancel_backend(?)", [build.pid]);
      await eventually("the invalid index of the killed build", async () => ((await indexValidity(orm, [killedIndex])).get(killedIndex) === false ? true : undefined));
    } finally {
      await blocker.rollback();
    }

    // The builder drops the invalid index and builds it again, and builds the rest.
    await waitForValidIndexes(
      orm,
      accepted.map((d) => indexName(d.fieldKey)),
    );
    const refusedKeys = KEYS.filter((key) => !accepted.some((d) => d.fieldKey === key));
    expect([...(await indexValidity(orm, refusedKeys.map(indexName))).keys()]).toEqual([]);
  });

  it("drops an index, off the request path, once no live definition wants it", async () => {
    expect(accepted.length).toBeGreaterThan(0);
    const [gone, unmarked] = accepted;
    expect((await rest("DELETE", `/api/v1/custom-fields/${gone.id}`, { token })).status).toBe(200);
    expect((await rest("PATCH", `/api/v1/custom-fields/${unmarked.id}`, { token, body: { indexed: false } })).status).toBe(200);
    const names = [indexName(gone.fieldKey), indexName(unmarked.fieldKey)];
    await eventually("the unwanted indexes to be dropped", async () => ((await indexValidity(orm, names)).size === 0 ? true : undefined));
    // The slots are free again.
    const again = await rest("POST", "/api/v1/custom-fields", {
      token,
      body: { entityType: "Customer", fieldKey: "ixcap_again", fieldLabel: "Again", fieldType: "number", indexed: true },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });
});
