/**
 * The definitions of one tenant and entity type, cached in a key-value store (Redis, or a Map
 * when there is one process) under `custom-fields:{tenantId}:{entityType}` for the configured TTL.
 *
 * Why a generation: a plain "delete on write" lets a slow reader put old definitions back. A reader
 * that loaded before the write commits but stores after the write's delete would refill the cache
 * with stale data for a whole TTL. So every entity type has a generation counter
 * (`custom-fields-gen:{tenantId}:{entityType}`, no TTL) that every write increments before it
 * deletes the entry. A reader takes the generation before it loads from the database and stores it
 * with what it loaded; an entry counts only while its generation is the current one. A stale
 * entry is at worst a miss, never an answer.
 *
 * The generation keys carry no TTL and the entries do, so under Redis's volatile-* eviction
 * policies (or noeviction, the default) a generation is never evicted while entries depend on it.
 *
 * Hits and misses are counted per tenant in the store itself, so every API replica adds to the
 * same numbers.
 */
import type { KeyValueStore } from "./port.js";
import type { FieldDefinition } from "../../domain/customfields/definition.js";

export interface DefinitionCacheStats {
  /** Entity types of the tenant whose current definitions are cached. */
  cachedEntityTypes: string[];
  /** Keys held under `custom-fields:{tenantId}:`. */
  keyCount: number;
  hits: number;
  misses: number;
}

interface CachedEntry {
  generation: number;
  definitions: FieldDefinition[];
}

export const cacheKey = (tenantId: string, entityType: string) => `custom-fields:${tenantId}:${entityType}`;
export const generationKey = (tenantId: string, entityType: string) => `custom-fields-gen:${tenantId}:${entityType}`;
const counterKey = (tenantId: string, counter: "hits" | "misses") => `custom-fields-stats:${tenantId}:${counter}`;

export class DefinitionCache {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly ttlSeconds: number,
    /** Told when the store fails on a read; the read then goes to the database. */
    private readonly onReadError: (error: unknown) => void = () => undefined,
  ) {}

  /** The cached definitions, or `load()`'s, which are then cached under the generation seen before. */
  async get(tenantId: string, entityType: string, load: () => Promise<FieldDefinition[]>): Promise<FieldDefinition[]> {
    let generation: number;
    let entry: CachedEntry | undefined;
    try {
      // One round trip, read together: the generation is known before anything is loaded.
      const [gen, raw] = await this.kv.getMany([generationKey(tenantId, entityType), cacheKey(tenantId, entityType)]);
      generation = Number(gen ?? 0);
      entry = raw === undefined ? undefined : parseEntry(raw);
    } catch (error) {
      this.onReadError(error);
      return load();
    }
    if (entry !== undefined && entry.generation === generation) {
      await this.count(tenantId, "hits");
      return entry.definitions;
    }
    await this.count(tenantId, "misses");
    const definitions = await load();
    try {
      const value: CachedEntry = { generation, definitions };
      await this.kv.set(cacheKey(tenantId, entityType), JSON.stringify(value), this.ttlSeconds);
    } catch (error) {
      this.onReadError(error);
    }
    return definitions;
  }

  /** Makes every entry read so far stale, then drops the entry. Throws when the store fails. */
  async invalidate(tenantId: string, entityType: string): Promise<void> {
    await this.kv.incr(generationKey(tenantId, entityType));
    await this.kv.del(cacheKey(tenantId, entityType));
  }

  async stats(tenantId: string): Promise<DefinitionCacheStats> {
    const prefix = cacheKey(tenantId, "");
    const keys = await this.kv.keysWithPrefix(prefix);
    // A longer tenant id can share the prefix ("a" and "a:b"); entity types hold no colon.
    const entityTypes = keys.map((key) => key.slice(prefix.length)).filter((type) => type !== "" && !type.includes(":"));
    const values = await this.kv.getMany([
      counterKey(tenantId, "hits"),
      counterKey(tenantId, "misses"),
      ...entityTypes.flatMap((type) => [generationKey(tenantId, type), cacheKey(tenantId, type)]),
    ]);
    const cachedEntityTypes = entityTypes.filter((_, i) => {
      const entry = values[3 + 2 * i] === undefined ? undefined : parseEntry(values[3 + 2 * i]!);
      return entry !== undefined && entry.generation === Number(values[2 + 2 * i] ?? 0);
    });
    return {
      cachedEntityTypes: cachedEntityTypes.sort(),
      keyCount: entityTypes.length,
      hits: Number(values[0] ?? 0),
      misses: Number(values[1] ?? 0),
    };
  }

  /** Hits and misses of every tenant together, for /metrics. */
  async totals(): Promise<{ hits: number; misses: number }> {
    const keys = await this.kv.keysWithPrefix("custom-fields-stats:");
    const values = await this.kv.getMany(keys);
    const sum = (suffix: string) =>
      keys.reduce((total, key, i) => (key.endsWith(suffix) ? total + Number(values[i] ?? 0) : total), 0);
    return { hits: sum(":hits"), misses: sum(":misses") };
  }

  private async count(tenantId: string, counter: "hits" | "misses"): Promise<void> {
    try {
      await this.kv.incr(counterKey(tenantId, counter));
    } catch (error) {
      this.onReadError(error);
    }
  }
}

/** An entry that cannot be read (another version's format, a partial write) is a miss. */
function parseEntry(raw: string): CachedEntry | undefined {
  try {
    const parsed = JSON.parse(raw) as { generation?: unknown; definitions?: unknown };
    if (typeof parsed.generation !== "number" || !Array.isArray(parsed.definitions)) return undefined;
    return { generation: parsed.generation, definitions: parsed.definitions.map(reviveDates) };
  } catch {
    return undefined;
  }
}

function reviveDates(stored: FieldDefinition): FieldDefinition {
  const def: FieldDefinition = { ...stored, createdAt: new Date(stored.createdAt), updatedAt: new Date(stored.updatedAt) };
  if (stored.deletedAt !== undefined) def.deletedAt = new Date(stored.deletedAt);
  return def;
}
