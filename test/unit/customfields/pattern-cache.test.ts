/**
 * One tenant never evicts another's compiled patterns to make room for its own (issue #22): the
 * cache used to evict the oldest entry of all, so tenants filling their shares flushed everyone
 * else's patterns. Values here are plain strings; release records what the cache frees.
 */
import { describe, expect, it } from "vitest";
import { PatternCache, type PatternCacheLimits } from "../../../src/domain/customfields/pattern-cache.js";

const LIMITS: PatternCacheLimits = { cacheBytes: 600, cacheEntries: 100, tenantBytes: 200, tenantEntries: 20 };

function cacheRecordingReleases(): { cache: PatternCache<string>; released: string[] } {
  const released: string[] = [];
  return { cache: new PatternCache<string>((value) => released.push(value)), released };
}

/** `count` patterns of `cost` bytes each for `tenant`. */
function fill(cache: PatternCache<string>, tenant: string, count: number, cost: number): void {
  for (let i = 0; i < count; i++) cache.add(tenant, `^${tenant}${i}$`, `${tenant}:${i}`, cost, LIMITS);
}

describe("compiled-pattern cache", () => {
  it("keeps a small tenant's patterns while other tenants fill their shares", () => {
    const { cache, released } = cacheRecordingReleases();
    fill(cache, "b", 3, 10);
    for (const tenant of ["c", "d", "e", "a"]) fill(cache, tenant, 20, 10);
    expect(cache.tenantStats("b")).toEqual({ entries: 3, bytes: 30 });
    for (let i = 0; i < 3; i++) expect(cache.get("b", `^b${i}$`)).toBe(`b:${i}`);
    expect(released.filter((value) => value.startsWith("b:"))).toEqual([]);
    expect(cache.stats().bytes).toBeLessThanOrEqual(LIMITS.cacheBytes);
  });

  it("evicts from the tenant holding the most, least recently used first", () => {
    const { cache, released } = cacheRecordingReleases();
    fill(cache, "early", 1, 10);
    fill(cache, "a", 20, 10);
    fill(cache, "b", 20, 10);
    fill(cache, "c", 20, 10);
    // Full at c's last pattern: a, b and c hold the same, a first; early holds less and stays.
    expect(released).toEqual(["a:0"]);
    expect(cache.get("c", "^c0$")).toBe("c:0");
    cache.add("c", "^c-new$", "c:new", 10, LIMITS);
    expect(released).toEqual(["a:0", "c:1"]);
    expect(cache.get("early", "^early0$")).toBe("early:0");
  });

  it("does not keep an entry larger than the whole cache, and leaves it to the caller to free", () => {
    const { cache, released } = cacheRecordingReleases();
    fill(cache, "small", 2, 10);
    const kept = cache.add("huge", "^huge$", "huge", 1000, { ...LIMITS, tenantBytes: 1000 });
    expect(kept).toBe(false);
    expect(released).toEqual([]);
    expect(cache.tenantStats("small").entries).toBe(2);
  });

  it("sheds from the tenant holding the most when re2-wasm's heap is short", () => {
    const { cache, released } = cacheRecordingReleases();
    fill(cache, "small", 2, 10);
    fill(cache, "large", 5, 30);
    expect(cache.shed()).toBe(true);
    expect(released).toEqual(["large:0"]);
    expect(cache.tenantStats("small").entries).toBe(2);
  });
});
