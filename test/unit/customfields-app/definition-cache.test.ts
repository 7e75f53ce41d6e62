import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { KeyValueStore } from "../../../src/app/customfields/port.js";
import { MemoryKeyValueStore } from "../../../src/adapters/cache/memory-key-value.js";
import { RedisKeyValueStore } from "../../../src/adapters/cache/redis-key-value.js";
import { DefinitionCache, cacheKey } from "../../../src/app/customfields/definition-cache.js";
import type { FieldDefinition } from "../../../src/domain/customfields/definition.js";
import { def } from "../customfields/fixtures.js";

/** A gate a test opens when it wants a slow load to finish. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** The "database": definitions of one entity type, replaced by writes. */
function database(initial: FieldDefinition[]) {
  let current = initial;
  let loads = 0;
  return {
    load: async () => {
      loads++;
      return current;
    },
    write(next: FieldDefinition[]) {
      current = next;
    },
    get loads() {
      return loads;
    },
  };
}

const v1 = [def("tier", { version: 1, fieldLabel: "Tier" })];
const v2 = [def("tier", { version: 2, fieldLabel: "Customer tier" })];

function cacheContract(name: string, makeKv: () => Promise<KeyValueStore>) {
  describe(`DefinitionCache on ${name}`, () => {
    let kv: KeyValueStore;
    let tenant: string;
    let n = 0;

    beforeAll(async () => {
      kv = await makeKv();
    });
    afterAll(async () => {
      await kv.close();
    });

    const fresh = () => {
      tenant = `tenant-${name}-${++n}-${Math.random().toString(36).slice(2, 8)}`;
      return new DefinitionCache(kv, 3600);
    };

    it("answers the second read from the cache, counting one miss then one hit", async () => {
      const cache = fresh();
      const db = database(v1);
      expect(await cache.get(tenant, "Customer", db.load)).toEqual(v1);
      expect(await cache.get(tenant, "Customer", db.load)).toEqual(v1);
      expect(db.loads).toBe(1);
      const stats = await cache.stats(tenant);
      expect(stats).toEqual({ cachedEntityTypes: ["Customer"], keyCount: 1, hits: 1, misses: 1 });
    });

    it("keeps dates as dates through the store", async () => {
      const cache = fresh();
      const deleted = [def("gone", { deletedAt: new Date("2024-02-02T00:00:00Z") })];
      await cache.get(tenant, "Customer", async () => deleted);
      const cached = await cache.get(tenant, "Customer", async () => []);
      expect(cached[0].createdAt).toBeInstanceOf(Date);
      expect(cached[0].deletedAt).toEqual(new Date("2024-02-02T00:00:00Z"));
    });

    it("drops the entry on invalidation: the next read loads the new definitions", async () => {
      const cache = fresh();
      const db = database(v1);
      await cache.get(tenant, "Customer", db.load);
      db.write(v2);
      await cache.invalidate(tenant, "Customer");
      expect(await kv.get(cacheKey(tenant, "Customer"))).toBeUndefined();
      expect(await cache.get(tenant, "Customer", db.load)).toEqual(v2);
    });

    it("never serves old definitions stored by a reader that raced a write", async () => {
      const cache = fresh();
      const db = database(v1);
      const slow = gate();
      // Reader A reads the old definitions from the database, then stalls before caching them.
      const readerA = cache.get(tenant, "Customer", async () => {
        const loaded = await db.load();
        await slow.opened;
        return loaded;
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      // A write commits and invalidates while A is still holding the old definitions.
      db.write(v2);
      await cache.invalidate(tenant, "Customer");
      slow.open();
      expect(await readerA).toEqual(v1);
      // A has now put v1 under the cache key; it must not count.
      expect(await kv.get(cacheKey(tenant, "Customer"))).toContain('"fieldLabel":"Tier"');
      const before = await cache.stats(tenant);
      expect(before.cachedEntityTypes).toEqual([]);
      expect(await cache.get(tenant, "Customer", db.load)).toEqual(v2);
      const after = await cache.stats(tenant);
      expect(after.misses).toBe(before.misses + 1);
      expect(after.cachedEntityTypes).toEqual(["Customer"]);
      expect(await cache.get(tenant, "Customer", db.load)).toEqual(v2);
    });

    it("keeps tenants and entity types apart, also a tenant id that extends another's", async () => {
      const cache = fresh();
      const other = `${tenant}:x`;
      await cache.get(tenant, "Customer", async () => v1);
      await cache.get(tenant, "Product", async () => []);
      await cache.get(other, "Customer", async () => v2);
      await cache.get(other, "Customer", async () => v2);
      expect(await cache.stats(tenant)).toEqual({ cachedEntityTypes: ["Customer", "Product"], keyCount: 2, hits: 0, misses: 2 });
      expect(await cache.stats(other)).toMatchObject({ cachedEntityTypes: ["Customer"], hits: 1, misses: 1 });
      await cache.invalidate(tenant, "Customer");
      expect(await cache.get(other, "Customer", async () => [])).toEqual(v2);
    });
  });
}

cacheContract("the in-process store", async () => new MemoryKeyValueStore());

// The unit project's global setup starts redis-server (test/unit/global-setup.ts).
describe("with a real redis-server", () => {
  cacheContract("Redis", () => RedisKeyValueStore.connect(inject("redisUrl")));
});

describe("DefinitionCache expiry and failures", () => {
  it("forgets an entry after the TTL", async () => {
    let now = 0;
    const kv = new MemoryKeyValueStore(() => now);
    const cache = new DefinitionCache(kv, 3600);
    const db = database(v1);
    await cache.get("t", "Customer", db.load);
    now += 3599_000;
    await cache.get("t", "Customer", db.load);
    expect(db.loads).toBe(1);
    now += 2_000;
    await cache.get("t", "Customer", db.load);
    expect(db.loads).toBe(2);
  });

  it("reads from the database when the store fails, and reports it", async () => {
    const broken = new MemoryKeyValueStore();
    broken.getMany = async () => {
      throw new Error("connection refused");
    };
    const reported: unknown[] = [];
    const cache = new DefinitionCache(broken, 3600, (error) => reported.push(error));
    expect(await cache.get("t", "Customer", async () => v2)).toEqual(v2);
    expect(reported).toHaveLength(1);
  });

  it("treats an unreadable entry as a miss", async () => {
    const kv = new MemoryKeyValueStore();
    await kv.set(cacheKey("t", "Customer"), "{not json");
    const cache = new DefinitionCache(kv, 3600);
    expect(await cache.get("t", "Customer", async () => v2)).toEqual(v2);
  });
});
