/**
 * Compiled patterns kept for reuse, bounded in total and per tenant, least recently used out
 * first. Every compiled pattern lives in re2-wasm's one fixed heap, so a tenant may only hold its
 * share of it, and one tenant never evicts another's patterns to make room for its own: when the
 * cache is full, entries leave the tenant holding the most (least recently used first), which is
 * the adding tenant itself whenever it holds the most. A tenant holding less than others keeps its
 * patterns however many others a tenant adds. Costs are upper bounds of the heap a compiled
 * program keeps (pattern-cost.ts), not measured bytes.
 */

export interface PatternCacheLimits {
  /** Bytes (upper bounds) of all cached patterns together. */
  cacheBytes: number;
  cacheEntries: number;
  /** Bytes and entries one tenant may hold. */
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

  /**
   * Adds a compiled pattern, then evicts: the tenant's own oldest while it is over its share, then
   * from the tenant holding the most while the cache is over its bounds. Returns false when the
   * new entry itself had to go (it alone is more than the cache holds): it is then not released
   * here, and the caller frees it after use.
   */
  add(tenant: string, pattern: string, value: T, cost: number, limits: PatternCacheLimits): boolean {
    const entry: Entry<T> = { key: keyOf(tenant, pattern), tenant, value, cost };
    const shelf = this.byTenant.get(tenant) ?? new Shelf<T>();
    this.byTenant.set(tenant, shelf);
    shelf.put(entry);
    this.all.put(entry);
    while (shelf.over(limits.tenantBytes, limits.tenantEntries) && shelf.entries.size > 1) this.evict(shelf.oldest(), entry);
    while (this.all.over(limits.cacheBytes, limits.cacheEntries) && this.all.entries.has(entry.key)) {
      this.evict(this.largestHolder()?.oldest(), entry);
    }
    return this.all.entries.has(entry.key);
  }

  /**
   * Frees one entry, from the tenant holding the most: for when re2-wasm's heap is fuller than
   * the costs say (fragmentation). Returns false when the cache is empty.
   */
  shed(): boolean {
    const entry = this.largestHolder()?.oldest();
    if (!entry) return false;
    this.evict(entry);
    return true;
  }

  /** Frees everything (tests, and a process letting go of the engine). */
  clear(): void {
    for (const entry of [...this.all.entries.values()]) this.evict(entry);
  }

  /** Frees one tenant's entry for a pattern (its program misbehaved: it is compiled again). */
  drop(tenant: string, pattern: string): void {
    this.evict(this.all.entries.get(keyOf(tenant, pattern)));
  }

  stats(): { entries: number; bytes: number; tenants: number } {
    return { entries: this.all.entries.size, bytes: this.all.bytes, tenants: this.byTenant.size };
  }

  /** Entries one tenant holds, for tests and metrics. */
  tenantStats(tenant: string): { entries: number; bytes: number } {
    const shelf = this.byTenant.get(tenant);
    return { entries: shelf?.entries.size ?? 0, bytes: shelf?.bytes ?? 0 };
  }

  /** The tenant holding the most bytes; ties go to the one that was first to hold them. */
  private largestHolder(): Shelf<T> | undefined {
    let largest: Shelf<T> | undefined;
    for (const shelf of this.byTenant.values()) if (!largest || shelf.bytes > largest.bytes) largest = shelf;
    return largest;
  }

  /** `kept`, the entry being added, leaves the cache unreleased: its caller still uses it. */
  private evict(entry: Entry<T> | undefined, kept?: Entry<T>): void {
    if (!entry) return;
    this.all.remove(entry);
    const shelf = this.byTenant.get(entry.tenant);
    shelf?.remove(entry);
    if (shelf?.entries.size === 0) this.byTenant.delete(entry.tenant);
    if (entry !== kept) this.release(entry.value);
  }
}

function keyOf(tenant: string, pattern: string): string {
  return `${tenant}\u0000${pattern}`;
}
