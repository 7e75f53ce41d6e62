/**
 * Creates that could not reach the server, kept in IndexedDB so that they survive a reload and
 * are sent when the network is back. Each entry holds the tenant it was made for: the page sends
 * only those of the tenant its token is for.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { committed, request } from "../fields-client/idb-promise.js";

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
    // Written once committed, not when the request succeeds: "queued" must still hold after a reload.
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
