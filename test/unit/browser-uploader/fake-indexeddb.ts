/**
 * A small IndexedDB of the shape queue-store.ts uses (open with upgrade, one object store keyed
 * by `id`, put / delete / getAll), answering asynchronously like the real one. Values are kept
 * as structured clones, as IndexedDB keeps them: a File comes back as an equal copy. Databases
 * live as long as the factory, so a second queue over the same factory is "after a reload".
 */
import type { IdbDatabaseLike, IdbFactoryLike, IdbObjectStoreLike, IdbRequestLike, QueueRecord } from "../../../packages/client/src/browser-uploader/queue-store.js";

type Request<T> = IdbRequestLike<T> & { onupgradeneeded: (() => void) | null };

/** `before` runs first with the result set: an open's upgradeneeded comes before its success. */
function answer<T>(produce: () => T, before?: (request: Request<T>) => void): Request<T> {
  const request: Request<T> = { result: undefined as T, error: null, onsuccess: null, onerror: null, onupgradeneeded: null };
  setTimeout(() => {
    try {
      request.result = produce();
      before?.(request);
      request.onsuccess?.();
    } catch (error) {
      request.error = error;
      request.onerror?.();
    }
  }, 0);
  return request;
}

export class FakeIndexedDb implements IdbFactoryLike {
  readonly databases = new Map<string, Map<string, Map<string, QueueRecord>>>();
  opens = 0;
  /** Makes every later write fail, as a full disk or a private window would. */
  failWrites = false;

  open(name: string): Request<IdbDatabaseLike> {
    this.opens++;
    const isNew = !this.databases.has(name);
    const stores = this.databases.get(name) ?? new Map<string, Map<string, QueueRecord>>();
    this.databases.set(name, stores);
    const database: IdbDatabaseLike = {
      objectStoreNames: { contains: (store) => stores.has(store) },
      createObjectStore: (store) => stores.set(store, new Map()),
      transaction: (store) => ({ objectStore: () => this.objectStore(stores.get(store)!) }),
    };
    return answer(
      () => database,
      (request) => {
        if (isNew) request.onupgradeneeded?.();
      },
    );
  }

  private objectStore(rows: Map<string, QueueRecord>): IdbObjectStoreLike {
    const write = <T>(change: () => T) => answer(() => {
      if (this.failWrites) throw new Error("QuotaExceededError");
      return change();
    });
    return {
      put: (value) => write(() => rows.set(value.id, structuredClone(value))),
      delete: (key) => write(() => rows.delete(key)),
      getAll: () => answer(() => [...rows.values()].map((row) => structuredClone(row))),
    };
  }
}
