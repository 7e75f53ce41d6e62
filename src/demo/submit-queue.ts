/**
 * Creates that could not reach the server, kept in IndexedDB so that they survive a reload and
 * are sent when the network is back. Each entry holds the tenant it was made for: the page sends
 * only those of the tenant its token is for.
 */
import type { JsonObject } from "@bufbuild/protobuf";

export interface QueuedSubmit {
  /** Given by IndexedDB on add; increasing, so the queue is sent in the order it was filled. */
  id?: number;
  tenant: string;
  entityType: string;
  standard: Record<string, string>;
  customFields: JsonObject;
  /** ISO 8601. */
  queuedAt: string;
}

const OBJECT_STORE = "submits";

export class SubmitQueue {
  private opened: Promise<IDBDatabase> | undefined;

  constructor(private readonly databaseName = "demo-fields-form") {}

  async add(entry: QueuedSubmit): Promise<number> {
    const store = await this.objectStore("readwrite");
    const done = committed(store.transaction);
    const id = await request<number>(store.add(entry));
    await done;
    return id;
  }

  async list(tenant: string): Promise<QueuedSubmit[]> {
    const store = await this.objectStore("readonly");
    const all = await request<QueuedSubmit[]>(store.getAll());
    return all.filter((entry) => entry.tenant === tenant);
  }

  async remove(id: number): Promise<void> {
    const store = await this.objectStore("readwrite");
    store.delete(id);
    await committed(store.transaction);
  }

  private async objectStore(mode: IDBTransactionMode): Promise<IDBObjectStore> {
    this.opened ??= openDatabase(this.databaseName);
    return (await this.opened).transaction(OBJECT_STORE, mode).objectStore(OBJECT_STORE);
  }
}

function openDatabase(name: string): Promise<IDBDatabase> {
  const open = indexedDB.open(name, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(OBJECT_STORE, { keyPath: "id", autoIncrement: true });
  return request(open);
}

function request<T>(req: IDBRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result as T);
    req.onerror = () => reject(req.error ?? new Error("IndexedDB request failed"));
  });
}

/** Written once committed, not when the request succeeds: "queued" must still hold after a reload. */
function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error("IndexedDB transaction failed"));
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
  });
}
