import { browserNetwork, type NetworkStatus } from "./runtime.js";
import type { Upload } from "./uploader.js";

export interface UploadQueueOptions {
  /** Uploads running at once. Default 2. */
  concurrency?: number;
  /** Defaults to `navigator.onLine` and the window's online/offline events. */
  network?: NetworkStatus;
  /** Called whenever the queue's content or its paused state changed. */
  onChange?(queue: UploadQueue): void;
}

interface Entry {
  upload: Upload;
  resolve(upload: Upload): void;
  unsubscribe(): void;
}

/**
 * Runs uploads with limited concurrency. While the browser is offline it starts nothing and
 * resumes on the `online` event; running uploads wait for the network inside their retries.
 * An upload cancelled while it waits leaves the queue at once.
 */
export class UploadQueue {
  private readonly waiting: Entry[] = [];
  private readonly active = new Set<Upload>();
  private readonly concurrency: number;
  private readonly network: NetworkStatus;
  private readonly stopListening: () => void;

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
    return new Promise((resolve) => {
      const entry: Entry = {
        upload,
        resolve,
        unsubscribe: upload.subscribe(() => {
          if (upload.finished && this.remove(entry)) resolve(upload);
        }),
      };
      this.waiting.push(entry);
      this.pump();
    });
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

  /** Stops listening to the network; queued uploads stay where they are. */
  dispose(): void {
    this.stopListening();
  }

  private pump(): void {
    while (!this.paused && this.active.size < this.concurrency && this.waiting.length > 0) {
      const entry = this.waiting.shift()!;
      entry.unsubscribe();
      this.active.add(entry.upload);
      void entry.upload.start().then((upload) => {
        this.active.delete(upload);
        entry.resolve(upload);
        this.changed();
        this.pump();
      });
    }
    this.changed();
  }

  private remove(entry: Entry): boolean {
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
