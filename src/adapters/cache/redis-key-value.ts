import { Redis } from "ioredis";
import { AppError } from "../../domain/errors.js";
import type { KeyValueStore } from "../../app/customfields/port.js";

export interface RedisOptions {
  /** Per command; a cache that hangs would stall every request that reads definitions. */
  commandTimeoutMs?: number;
}

/** SCAN MATCH treats these as pattern syntax; a prefix is matched literally. */
function literalPattern(prefix: string): string {
  return `${prefix.replace(/[\\*?[\]]/g, (ch) => `\\${ch}`)}*`;
}

/** KeyValueStore on Redis (ioredis). Failures leave as DEPENDENCY_UNAVAILABLE with the cause. */
export class RedisKeyValueStore implements KeyValueStore {
  private constructor(private readonly redis: Redis) {}

  static async connect(url: string, options: RedisOptions = {}): Promise<RedisKeyValueStore> {
    const redis = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 2000,
    });
    // ioredis reports connection errors as events too; they are logged by the callers' failures.
    redis.on("error", () => undefined);
    await redis.connect();
    return new RedisKeyValueStore(redis);
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.run(() => this.redis.get(key))) ?? undefined;
  }

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    if (keys.length === 0) return [];
    const values = await this.run(() => this.redis.mget(...keys));
    return values.map((value) => value ?? undefined);
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    await this.run(() => (ttlSeconds === undefined ? this.redis.set(key, value) : this.redis.set(key, value, "EX", ttlSeconds)));
  }

  async del(...keys: string[]): Promise<void> {
    if (keys.length > 0) await this.run(() => this.redis.del(...keys));
  }

  async incr(key: string): Promise<number> {
    return this.run(() => this.redis.incr(key));
  }

  async keysWithPrefix(prefix: string): Promise<string[]> {
    const found = new Set<string>();
    let cursor = "0";
    do {
      const [next, keys] = await this.run(() => this.redis.scan(cursor, "MATCH", literalPattern(prefix), "COUNT", 500));
      for (const key of keys) found.add(key);
      cursor = next;
    } while (cursor !== "0");
    return [...found];
  }

  async ping(): Promise<void> {
    await this.run(() => this.redis.ping());
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new AppError("DEPENDENCY_UNAVAILABLE", "cache unavailable; retry shortly", { cause: error });
    }
  }
}
