/**
 * Creates that could not reach the server, kept in IndexedDB so that they survive a reload and
 * are sent when the network is back. Each entry holds its owner, the tenant and user of the token
 * it was made with (queue-owner.ts): the page sends only the entries of its current token's
 * owner, so a create queued by one user never goes out with another's token. Entries of an
 * older page, which carry no user, are never sent.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { committed, request } from "../../packages/client/src/fields-client/idb-promise.js";
import { sameOwner, type QueueOwner } from "./queue-owner.js";

export interface QueuedSubmit {
  /** Given by IndexedDB on add; increasing, so the queue is sent in the order it was filled. */
  id?: number;
  tenant: string;
  user: string;
  entityType: string;
  standard: Record<string, string>;
  customFields: JsonObject;
  /** ISO 8601. */
  queuedAt: string;
}

/** Where the entries are kept: IndexedDB in the page, anything with the same three calls in tests. */
export interface SubmitRecords {
  add(entry: QueuedSubmit): Promise<number>;
  all(): Promise<QueuedSubmit[]>;
  remove(id: number): Promise<void>;
}

export class SubmitQueue {
  constructor(private readonly records: SubmitRecords = indexedDbSubmitRecords("demo-fields-form")) {}

  add(entry: QueuedSubmit): Promise<number> {
    return this.records.add(entry);
  }

  /** The owner's entries, oldest first. */
  async list(owner: QueueOwner): Promise<QueuedSubmit[]> {
    return (await this.records.all()).filter((entry) => sameOwner(owner, entry));
  }

  remove(id: number): Promise<void> {
    return this.records.remove(id);
  }
}

const OBJECT_STORE = "submits";

export function indexedDbSubmitRecords(databaseName: string): SubmitRecords {
  let opened: Promise<IDBDatabase> | undefined;
  const objectStore = async (mode: IDBTransactionMode) => {
    opened ??= openDatabase(databaseName);
    return (await opened).transaction(OBJECT_STORE, mode).objectStore(OBJECT_STORE);
  };
  return {
    async add(entry) {
      const store = await objectStore("readwrite");
      // Written once committed, not when the request succeeds: "queued" must still hold after a reload.
      const done = committed(store.transaction);
      const id = await request<number>(store.add(entry));
      await done;
      return id;
    },
    async all() {
      return request<QueuedSubmit[]>((await objectStore("readonly")).getAll());
    },
    async remove(id) {
      const store = await objectStore("readwrite");
      store.delete(id);
      await committed(store.transaction);
    },
  };
}

function openDatabase(name: string): Promise<IDBDatabase> {
  const open = indexedDB.open(name, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(OBJECT_STORE, { keyPath: "id", autoIncrement: true });
  return request(open);
}
