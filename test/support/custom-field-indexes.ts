import type { MikroORM } from "@mikro-orm/postgresql";

/**
 * What the catalog says of the named indexes: `pg_index.indisvalid` by name, absent when the index
 * does not exist. The worker builds custom field indexes after the save, so tests wait for them.
 */
export async function indexValidity(orm: MikroORM, names: readonly string[]): Promise<Map<string, boolean>> {
  const rows = await orm.em.fork().execute<{ name: string; valid: boolean }[]>(
    "select c.relname as name, i.indisvalid as valid from pg_class c join pg_index i on i.indexrelid = c.oid where c.relname = any(?::text[])",
    // An array literal: knex would spread a JS array into a list. Index names need no quoting.
    [`{${names.join(",")}}`],
  );
  return new Map(rows.map((r) => [r.name, r.valid]));
}

/** Polls until every named index exists and is valid; fails naming the ones that are not. */
export async function waitForValidIndexes(orm: MikroORM, names: readonly string[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let pending: string[] = [...names];
  while (Date.now() < deadline) {
    const state = await indexValidity(orm, names);
    pending = names.filter((n) => state.get(n) !== true);
    if (pending.length === 0) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`indexes not valid after ${timeoutMs} ms: ${pending.join(", ")}`);
}
