/**
 * Where the upload queue keeps its entries so that they survive a reload (like Uppy's Golden
 * Retriever): the file itself (a Blob, which IndexedDB stores as it is), what is needed to create
 * the upload again, and whether it waits or failed. Functions (the API client, callbacks) are
 * not stored: the page gives them again to `UploadQueue.restore`.
 */
import type { ResumePoint, UploadFile } from "./types.js";

/** What `createUpload` needs besides the file and the page's own wiring (api, callbacks). */
export interface UploadRecipe {
  objectClass: string;
  ownerEntityType: string;
  ownerEntityId: string;
  contentType: string;
  filename: string;
  /** Once the upload's object exists: a restored upload goes on with it (createUpload's `resume`). */
  resume?: ResumePoint;
}

export interface QueueRecord {
  id: string;
  file: UploadFile;
  recipe: UploadRecipe;
  /** `queued`: waiting or running when last written; `failed`: ended in error after its retries. */
  state: "queued" | "failed";
  error?: { reason: string; message: string };
  /** Milliseconds since the epoch; restore keeps this order. */
  addedAt: number;
}

export interface UploadQueueStore {
  put(record: QueueRecord): Promise<void>;
  delete(id: string): Promise<void>;
  list(): Promise<QueueRecord[]>;
}

/** For tests, and for pages that want no persistence but the same queue API. */
export class MemoryQueueStore implements UploadQueueStore {
  readonly records = new Map<string, QueueRecord>();

  async put(record: QueueRecord): Promise<void> {
    this.records.set(record.id, { ...record });
  }
  async delete(id: string): Promise<void> {
    this.records.delete(id);
  }
  async list(): Promise<QueueRecord[]> {
    return [...this.records.values()].map((record) => ({ ...record }));
  }
}

/** The part of IndexedDB this store uses: `indexedDB` in a browser, a fake in unit tests. */
export interface IdbRequestLike<T> {
  result: T;
  error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
export interface IdbObjectStoreLike {
  put(value: QueueRecord): IdbRequestLike<unknown>;
  delete(key: string): IdbRequestLike<unknown>;
  getAll(): IdbRequestLike<QueueRecord[]>;
}
export interface IdbTransactionLike {
  error: unknown;
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  objectStore(name: string): IdbObjectStoreLike;
}
export interface IdbDatabaseLike {
  objectStoreNames: { contains(name: string): boolean };
  createObjectStore(name: string, options: { keyPath: string }): unknown;
  transaction(name: string, mode: "readonly" | "readwrite"): IdbTransactionLike;
}
export interface IdbFactoryLike {
  open(name: string, version: number): IdbRequestLike<IdbDatabaseLike> & { onupgradeneeded: (() => void) | null };
}

const STORE = "uploads";

function completion<T>(request: IdbRequestLike<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error instanceof Error ? request.error : new Error("IndexedDB request failed"));
  });
}

function commit(transaction: IdbTransactionLike): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = () => reject(transaction.error instanceof Error ? transaction.error : new Error("IndexedDB transaction failed"));
    transaction.oncomplete = () => resolve();
    transaction.onerror = failed;
    transaction.onabort = failed;
  });
}

/** Queue entries in the IndexedDB database `databaseName`, one object store keyed by entry id. */
export function indexedDbQueueStore(databaseName = "browser-uploader-queue", factory: IdbFactoryLike = globalThis.indexedDB as unknown as IdbFactoryLike): UploadQueueStore {
  let opened: Promise<IdbDatabaseLike> | undefined;
  const database = () => {
    opened ??= (() => {
      const request = factory.open(databaseName, 1);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE, { keyPath: "id" });
      };
      return completion(request);
    })();
    return opened;
  };
  // A request's success is not yet a commit: a page closed before the transaction completes
  // loses the write. The queue waits for a write before the upload sends bytes, so a write
  // resolves once committed.
  const write = async (change: (objects: IdbObjectStoreLike) => IdbRequestLike<unknown>) => {
    const transaction = (await database()).transaction(STORE, "readwrite");
    const committed = commit(transaction);
    change(transaction.objectStore(STORE));
    await committed;
  };
  return {
    put: (record) => write((objects) => objects.put(record)),
    delete: (id) => write((objects) => objects.delete(id)),
    list: async () => completion((await database()).transaction(STORE, "readonly").objectStore(STORE).getAll()),
  };
}
