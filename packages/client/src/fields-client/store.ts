/**
 * Where a fields client keeps what it synced, so it can evaluate with the network off. Entries
 * are plain JSON documents (definitions in the API's JSON form, the organization profile as rules
 * see it), so every store is a key-value store of JSON: memory here, IndexedDB in browsers
 * (indexeddb-store.ts), a file in Node (file-store.ts, the only part of the package that needs Node).
 */
import type { JsonValue } from "@bufbuild/protobuf";

/** One synced document: the definitions of an entity type, or the organization profile. */
export interface StoredDocument {
  /** The server's version of it, sent back to revalidate (definitions) or compared (organization). */
  version: string;
  data: JsonValue;
  /** When the server last confirmed or sent it (ISO 8601). */
  syncedAt: string;
}

export interface FieldsStore {
  get(key: string): Promise<StoredDocument | undefined>;
  put(key: string, value: StoredDocument): Promise<void>;
}

/** Lost with the process: for tests, and for Node programs that sync at start. */
export function memoryStore(): FieldsStore {
  const entries = new Map<string, string>();
  return {
    async get(key) {
      const raw = entries.get(key);
      return raw === undefined ? undefined : (JSON.parse(raw) as StoredDocument);
    },
    // Kept serialized, as the other stores keep them: a caller's later change of the object is not seen.
    async put(key, value) {
      entries.set(key, JSON.stringify(value));
    },
  };
}
