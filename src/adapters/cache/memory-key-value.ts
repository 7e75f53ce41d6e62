import type { KeyValueStore } from "../../app/customfields/port.js";

interface Entry {
  value: string;
  /** Epoch milliseconds; undefined for no expiry. */
  expiresAt?: number;
}

/**
 * An in-process KeyValueStore for a single API process (no REDIS_URL). Expired entries are
 * dropped when touched, and by a sweep on writes so the map cannot grow without bound.
 */
export class MemoryKeyValueStore implements KeyValueStore {
  private readonly entries = new Map<string, Entry>();
  private writesSinceSweep = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  async get(key: string): Promise<string | undefined> {
    return this.live(key)?.value;
  }

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    return keys.map((key) => this.live(key)?.value);
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    const expiresAt = ttlSeconds === undefined ? undefined : this.clock() + ttlSeconds * 1000;
    this.entries.set(key, { value, expiresAt });
    this.maybeSweep();
  }

  async del(...keys: string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
  }

  async incr(key: string): Promise<number> {
    const current = this.live(key);
    const next = (current ? Number(current.value) : 0) + 1;
    if (!Number.isSafeInteger(next)) throw new Error(`value at ${key} is not an integer`);
    this.entries.set(key, { value: String(next), expiresAt: current?.expiresAt });
    return next;
  }

  async keysWithPrefix(prefix: string): Promise<string[]> {
    return [...this.entries.keys()].filter((key) => key.startsWith(prefix) && this.live(key) !== undefined);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.entries.clear();
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= this.clock()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private maybeSweep(): void {
    if (++this.writesSinceSweep < 1000) return;
    this.writesSinceSweep = 0;
    for (const key of [...this.entries.keys()]) this.live(key);
  }
}
