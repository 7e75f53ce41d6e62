/**
 * The small key-value port the definition cache needs: Redis in production, a Map in one process.
 * Values are strings; a key set without a TTL stays until deleted.
 */
export interface KeyValueStore {
  get(key: string): Promise<string | undefined>;
  /** Many keys in one round trip; absent keys answer undefined, in order. */
  getMany(keys: readonly string[]): Promise<(string | undefined)[]>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  del(...keys: string[]): Promise<void>;
  /** Adds one and answers the new value; an absent key counts from 0. */
  incr(key: string): Promise<number>;
  /** Every key that starts with `prefix` (a literal prefix, not a pattern). */
  keysWithPrefix(prefix: string): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
