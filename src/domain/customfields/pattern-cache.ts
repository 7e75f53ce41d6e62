/**
 * Compiled patterns kept for reuse, bounded in total and per tenant, least recently used out
 * first. Every compiled pattern lives in re2-wasm's one fixed heap, so a tenant may only hold its
 * share of it: a tenant saving many large patterns evicts its own, never fills the heap for the
 * others. Costs are the save-time estimates (pattern-cost.ts), not measured bytes.
 */

export interface PatternCacheLimits {
  /** Estimated bytes of all cached patterns together. */
  cacheBytes: number;
  cacheEntries: number;
  /** Estimated bytes and entries one tenant may hold. */
  tenantBytes: number;
  tenantEntries: number;
}

interface Entry<T> {
  key: string;
  tenant: string;
  value: T;
  cost: number;
}

/** A Map's insertion order is the recency order: a hit is deleted and set again. */
class Shelf<T> {
  readonly entries = new Map<string, Entry<T>>();
  bytes = 0;

  put(entry: Entry<T>): void {
    this.entries.set(entry.key, entry);
    this.bytes += entry.cost;
  }

  remove(entry: Entry<T>): void {
    if (this.entries.delete(entry.key)) this.bytes -= entry.cost;
  }

  touch(entry: Entry<T>): void {
    this.entries.delete(entry.key);
    this.entries.set(entry.key, entry);
  }

  oldest(): Entry<T> | undefined {
    return this.entries.values().next().value;
  }

  over(bytes: number, count: number): boolean {
    return this.entries.size > count || this.bytes > bytes;
  }
}

export class PatternCache<T> {
  private readonly all = new Shelf<T>();
  private readonly byTenant = new Map<string, Shelf<T>>();

  /** `release` frees what an entry holds outside JavaScript's heap when it leaves the cache. */
  constructor(private readonly release: (value: T) => void) {}

  get(tenant: string, pattern: string): T | undefined {
    const entry = this.all.entries.get(keyOf(tenant, pattern));
    if (!entry) return undefined;
    this.all.touch(entry);
    this.byTenant.get(tenant)?.touch(entry);
    return entry.value;
  }

  /** Adds a compiled pattern, then evicts: the tenant's own oldest first, then the oldest of all. */
  add(tenant: string, pattern: string, value: T, cost: number, limits: PatternCacheLimits): void {
    const entry: Entry<T> = { key: keyOf(tenant, pattern), tenant, value, cost };
    const shelf = this.byTenant.get(tenant) ?? new Shelf<T>();
    this.byTenant.set(tenant, shelf);
    shelf.put(entry);
    this.all.put(entry);
    while (shelf.over(limits.tenantBytes, limits.tenantEntries) && shelf.entries.size > 1) this.evict(shelf.oldest());
    while (this.all.over(limits.cacheBytes, limits.cacheEntries) && this.all.entries.size > 1) this.evict(this.all.oldest());
  }

  /** Frees everything (the engine ran out of memory). */
  clear(): void {
    for (const entry of [...this.all.entries.values()]) this.evict(entry);
  }

  stats(): { entries: number; bytes: number; tenants: number } {
    return { entries: this.all.entries.size, bytes: this.all.bytes, tenants: this.byTenant.size };
  }

  private evict(entry: Entry<T> | undefined): void {
    if (!entry) return;
    this.all.remove(entry);
    const shelf = this.byTenant.get(entry.tenant);
    shelf?.remove(entry);
    if (shelf?.entries.size === 0) this.byTenant.delete(entry.tenant);
    this.release(entry.value);
  }
}

function keyOf(tenant: string, pattern: string): string {
  return `${tenant}\u0000${pattern}`;
}
