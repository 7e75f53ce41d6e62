/**
 * A small IndexedDB of the shape queue-store.ts uses (open with upgrade, one object store keyed
 * by `id`, put / delete / getAll), answering asynchronously like the real one: a write's
 * transaction completes (or aborts, when the write failed) a task after its request answered. Values are kept
 * as structured clones, as IndexedDB keeps them: a File comes back as an equal copy. Databases
 * live as long as the factory, so a second queue over the same factory is "after a reload".
 */
import type { IdbDatabaseLike, IdbFactoryLike, IdbObjectStoreLike, IdbRequestLike, IdbTransactionLike, QueueRecord } from "../../../packages/client/src/browser-uploader/queue-store.js";

type Request<T> = IdbRequestLike<T> & { onupgradeneeded: (() => void) | null };

/**
 * `before` runs first with the result set: an open's upgradeneeded comes before its success.
 * `after` runs once the request answered, with the error if it failed.
 */
function answer<T>(produce: () => T, before?: (request: Request<T>) => void, after?: (error?: unknown) => void): Request<T> {
  const request: Request<T> = { result: undefined as T, error: null, onsuccess: null, onerror: null, onupgradeneeded: null };
  setTimeout(() => {
    try {
      request.result = produce();
      before?.(request);
      request.onsuccess?.();
      after?.();
    } catch (error) {
      request.error = error;
      request.onerror?.();
      after?.(error);
    }
  }, 0);
  return request;
}

export class FakeIndexedDb implements IdbFactoryLike {
  readonly databases = new Map<string, Map<string, Map<string, QueueRecord>>>();
  opens = 0;
  /** Makes every later write fail, as a full disk or a private window would. */
  failWrites = false;
  /** While set, transactions stay uncommitted (their requests answer); release() commits them. */
  holdCommits = false;
  private readonly held: (() => void)[] = [];

  release(): void {
    this.holdCommits = false;
    for (const commit of this.held.splice(0)) commit();
  }

  open(name: string): Request<IdbDatabaseLike> {
    this.opens++;
    const isNew = !this.databases.has(name);
    const stores = this.databases.get(name) ?? new Map<string, Map<string, QueueRecord>>();
    this.databases.set(name, stores);
    const database: IdbDatabaseLike = {
      objectStoreNames: { contains: (store) => stores.has(store) },
      createObjectStore: (store) => stores.set(store, new Map()),
      transaction: (store) => this.transaction(stores.get(store)!),
    };
    return answer(
      () => database,
      (request) => {
        if (isNew) request.onupgradeneeded?.();
      },
    );
  }

  private transaction(rows: Map<string, QueueRecord>): IdbTransactionLike {
    const transaction: IdbTransactionLike = { error: null, oncomplete: null, onerror: null, onabort: null, objectStore: () => objects };
    // queue-store.ts makes one request per transaction: the transaction ends a task after it.
    const end = (error?: unknown) =>
      setTimeout(() => {
        if (error !== undefined) {
          transaction.error = error;
          transaction.onerror?.();
          return transaction.onabort?.();
        }
        if (this.holdCommits) this.held.push(() => transaction.oncomplete?.());
        else transaction.oncomplete?.();
      }, 0);
    const write = <T>(change: () => T) =>
      answer(
        () => {
          if (this.failWrites) throw new Error("QuotaExceededError");
          return change();
        },
        undefined,
        end,
      );
    const objects: IdbObjectStoreLike = {
      put: (value) => write(() => rows.set(value.id, structuredClone(value))),
      delete: (key) => write(() => rows.delete(key)),
      getAll: () => answer(() => [...rows.values()].map((row) => structuredClone(row)), undefined, end),
    };
    return transaction;
  }
}
