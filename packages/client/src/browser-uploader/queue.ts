import type { QueueRecord, UploadQueueStore, UploadRecipe } from "./queue-store.js";
import { browserNetwork, type NetworkStatus } from "./runtime.js";
import type { UploadFile } from "./types.js";
import type { Upload } from "./uploader.js";

export interface UploadQueueOptions {
  /** Uploads running at once. Default 2. */
  concurrency?: number;
  /** Defaults to `navigator.onLine` and the window's online/offline events. */
  network?: NetworkStatus;
  /** Called whenever the queue's content or its paused state changed. */
  onChange?(queue: UploadQueue): void;
  /** Persists waiting and failed entries (indexedDbQueueStore() in a browser); none by default. */
  store?: UploadQueueStore;
  /** A write to the store failed: the queue goes on in memory. */
  onStoreError?(error: unknown): void;
  /**
   * How long an upload waits for the write of its resume point before it sends bytes anyway: a
   * store that never answers (an IndexedDB open that hangs, as in some Safari versions) must not
   * stop uploads. Default 10000.
   */
  resumeWriteWaitMs?: number;
  /** Ids of queue entries. Defaults to `crypto.randomUUID()`. */
  newId?(): string;
  clockNow?(): number;
}

/** An upload that ended in `error` (after its retries): it stays until retried or removed. */
export interface FailedUpload {
  id: string;
  filename: string;
  error: { reason: string; message: string };
}

interface Entry {
  id: string;
  addedAt: number;
  upload: Upload;
  /** The object of the resume point the store holds for this entry, if any. */
  storedObjectId?: string;
  resolve(upload: Upload): void;
  unsubscribe(): void;
}

interface Failure extends FailedUpload {
  record: QueueRecord;
  /** A new upload of the same file: from the failed one, or from the stored recipe after a reload. */
  again(): Upload;
}

/**
 * Runs uploads with limited concurrency. While the browser is offline it starts nothing and
 * resumes on the `online` event; running uploads wait for the network inside their retries.
 * An upload cancelled while it waits leaves the queue at once. With a store, waiting and failed
 * entries survive a reload (`restore`), and a failed upload can be retried or removed.
 */
export class UploadQueue {
  private readonly waiting: Entry[] = [];
  private readonly active = new Set<Upload>();
  private readonly failures: Failure[] = [];
  /**
   * Every entry id this queue has held, running and ended ones included: restore() reads the store
   * after the page may already have added (and started) uploads, whose records are stored too.
   */
  private readonly own = new Set<string>();
  private readonly concurrency: number;
  private readonly network: NetworkStatus;
  private readonly stopListening: () => void;
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly options: UploadQueueOptions = {}) {
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.network = options.network ?? browserNetwork();
    this.stopListening = this.network.subscribe(() => {
      this.pump();
      this.changed();
    });
  }

  /** Queues the upload; resolves with it once it ended (ready, rejected, cancelled or error). */
  add(upload: Upload): Promise<Upload> {
    return this.enqueue(upload, this.options.newId?.() ?? crypto.randomUUID(), this.now());
  }

  /**
   * After a reload: queues the stored waiting entries again (one whose object existed goes on with
   * it, see `UploadRecipe.resume`) and lists the stored failures. `recreate` builds an upload as the page does,
   * with its own API client and callbacks. Resolves with the promises `add` would have given.
   */
  async restore(recreate: (file: UploadFile, recipe: UploadRecipe) => Upload): Promise<Promise<Upload>[]> {
    const records = (await this.options.store?.list()) ?? [];
    const ended: Promise<Upload>[] = [];
    for (const record of records.sort((a, b) => a.addedAt - b.addedAt)) {
      if (this.own.has(record.id)) continue;
      this.own.add(record.id);
      if (record.state === "failed") this.failures.push(this.failure(record, () => recreate(record.file, record.recipe)));
      else ended.push(this.enqueue(recreate(record.file, record.recipe), record.id, record.addedAt, false));
    }
    this.changed();
    return ended;
  }

  /** Queues a failed upload again, as a new upload of the same file; undefined for an unknown id. */
  retry(id: string): Promise<Upload> | undefined {
    const failure = this.takeFailure(id);
    return failure && this.enqueue(failure.again(), id, failure.record.addedAt);
  }

  /** Forgets a failed upload, or cancels and forgets a waiting one. False for an unknown id. */
  remove(id: string): boolean {
    if (this.takeFailure(id)) {
      this.persist((store) => store.delete(id));
      this.changed();
      return true;
    }
    return this.waiting.find((entry) => entry.id === id)?.upload.cancel() ?? false;
  }

  get paused(): boolean {
    return !this.network.isOnline();
  }

  get pending(): readonly Upload[] {
    return this.waiting.map((entry) => entry.upload);
  }

  get running(): readonly Upload[] {
    return [...this.active];
  }

  get failed(): readonly FailedUpload[] {
    return this.failures.map(({ id, filename, error }) => ({ id, filename, error }));
  }

  /** Resolves once every store write issued so far is done (or reported to onStoreError). */
  persisted(): Promise<void> {
    return this.writes;
  }

  /** Stops listening to the network; queued uploads stay where they are. */
  dispose(): void {
    this.stopListening();
  }

  private enqueue(upload: Upload, id: string, addedAt: number, write = true): Promise<Upload> {
    this.own.add(id);
    if (write) this.persist((store) => store.put({ id, addedAt, file: upload.file, recipe: upload.recipe, state: "queued" }));
    return new Promise((resolve) => {
      const entry: Entry = {
        id,
        addedAt,
        upload,
        storedObjectId: upload.recipe.resume?.objectId,
        resolve: (ended) => {
          this.settle(entry);
          resolve(ended);
        },
        unsubscribe: upload.subscribe(() => {
          if (upload.finished && this.drop(entry)) entry.resolve(upload);
        }),
      };
      this.waiting.push(entry);
      this.pump();
    });
  }

  /** The entry ended: an error stays as a failure, anything else leaves the store. */
  private settle(entry: Entry): void {
    const { upload, id } = entry;
    if (upload.state !== "error") {
      this.persist((store) => store.delete(id));
      return;
    }
    const error = { reason: upload.error?.reason ?? "UNEXPECTED", message: upload.error?.message ?? "" };
    const record: QueueRecord = { id, addedAt: entry.addedAt, file: upload.file, recipe: upload.recipe, state: "failed", error };
    this.failures.push(this.failure(record, () => upload.again()));
    this.persist((store) => store.put(record));
    this.changed();
  }

  private failure(record: QueueRecord, again: () => Upload): Failure {
    const error = record.error ?? { reason: "UNEXPECTED", message: "" };
    return { id: record.id, filename: record.recipe.filename, error, record, again };
  }

  private takeFailure(id: string): Failure | undefined {
    const index = this.failures.findIndex((failure) => failure.id === id);
    return index < 0 ? undefined : this.failures.splice(index, 1)[0];
  }

  /** Store writes run one after the other, in the order the queue changed. */
  private persist(write: (store: UploadQueueStore) => Promise<void>): void {
    const store = this.options.store;
    if (!store) return;
    this.writes = this.writes.then(() => write(store)).catch((error: unknown) => this.options.onStoreError?.(error));
  }

  private now(): number {
    return this.options.clockNow?.() ?? Date.now();
  }

  private pump(): void {
    while (!this.paused && this.active.size < this.concurrency && this.waiting.length > 0) {
      const entry = this.waiting.shift()!;
      entry.unsubscribe();
      this.active.add(entry.upload);
      void entry.upload.start({ objectKnown: (upload) => this.keepResumePoint(entry, upload) }).then((upload) => {
        this.active.delete(upload);
        entry.resolve(upload);
        this.changed();
        this.pump();
      });
    }
    this.changed();
  }

  /**
   * Rewrites the entry once its upload's object exists, and resolves when that write is done: the
   * upload sends no byte before, so that after a reload it goes on with that object (a multipart
   * upload sends only the parts storage lacks) instead of anew. A failed write is reported to
   * onStoreError and the upload goes on; so does one still unanswered after `resumeWriteWaitMs`.
   */
  private keepResumePoint(entry: Entry, upload: Upload): Promise<void> {
    const { recipe } = upload;
    if (recipe.resume && recipe.resume.objectId !== entry.storedObjectId) {
      entry.storedObjectId = recipe.resume.objectId;
      this.persist((store) => store.put({ id: entry.id, addedAt: entry.addedAt, file: upload.file, recipe, state: "queued" }));
    }
    return settledWithin(this.writes, this.options.resumeWriteWaitMs ?? 10_000);
  }

  private drop(entry: Entry): boolean {
    const index = this.waiting.indexOf(entry);
    if (index < 0) return false;
    this.waiting.splice(index, 1);
    entry.unsubscribe();
    this.changed();
    return true;
  }

  private changed(): void {
    this.options.onChange?.(this);
  }
}

/** Resolves when `work` settles or after `ms`, whichever comes first. */
function settledWithin(work: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([work, waited]).finally(() => clearTimeout(timer));
}
