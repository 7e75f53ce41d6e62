/**
 * The browser's store: one IndexedDB database with one object store of StoredDocument by key.
 * Survives reloads and works offline; each call opens a short transaction.
 */
import { committed, request } from "./idb-promise.js";
import type { FieldsStore, StoredDocument } from "./store.js";

const OBJECT_STORE = "definitions";

export interface IndexedDbStoreOptions {
  /** The database's name; one per application is enough (entries are keyed by namespace and entity type). */
  databaseName?: string;
  /** Another IndexedDB than the global one (tests, workers). */
  indexedDB?: IDBFactory;
}

export function indexedDbStore(options: IndexedDbStoreOptions = {}): FieldsStore {
  const factory = options.indexedDB ?? globalThis.indexedDB;
  const name = options.databaseName ?? "fields-client";
  let opened: Promise<IDBDatabase> | undefined;
  const database = () => (opened ??= openDatabase(factory, name));
  return {
    async get(key) {
      const db = await database();
      return request<StoredDocument | undefined>(db.transaction(OBJECT_STORE, "readonly").objectStore(OBJECT_STORE).get(key));
    },
    async put(key, value) {
      const db = await database();
      const tx = db.transaction(OBJECT_STORE, "readwrite");
      tx.objectStore(OBJECT_STORE).put(value, key);
      await committed(tx);
    },
  };
}

function openDatabase(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  const open = factory.open(name, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(OBJECT_STORE);
  return request(open);
}
