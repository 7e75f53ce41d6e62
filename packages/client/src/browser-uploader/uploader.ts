import { DEFAULT_RETRY, withRetry, type RetryPolicy } from "./backoff.js";
import { checkClassRules, normalizeContentType } from "./class-rules.js";
import { ApiError, CancelledError, isTransientApiError, toUploadError, UploadError } from "./errors.js";
import { sendMissingParts } from "./part-transfer.js";
import { alwaysOnline, browserClock, browserNetwork, type Clock, type NetworkStatus } from "./runtime.js";
import { webCryptoSha256 } from "./sha256.js";
import { isExpiry, isSuccess, refused, throwIfUnavailable } from "./storage-answer.js";
import {
  END_STATES,
  CANCELLABLE_STATES,
  type PartPlan,
  type ResumePoint,
  type UploadFile,
  type UploadProgress,
  type UploadState,
  type UploadTarget,
  type UploadedObject,
} from "./types.js";
import type { Transfer, TransferResponse, UploadApi } from "./upload-api.js";
import { xhrTransfer } from "./xhr-transfer.js";
import type { UploadRecipe } from "./queue-store.js";

export type UploadStep = "initiate" | "upload" | "refresh" | "complete" | "scan";

export interface UploadOptions {
  objectClass: string;
  ownerEntityType: string;
  ownerEntityId: string;
  /** Defaults to `file.type` (what the browser derived from the extension). */
  contentType?: string;
  /** Defaults to `file.name`. */
  filename?: string;
  api: UploadApi;
  /** Defaults to the XMLHttpRequest PUT. */
  transfer?: Transfer;
  clock?: Clock;
  /** Source of the backoff jitter, in [0, 1). */
  random?: () => number;
  network?: NetworkStatus;
  retry?: Partial<RetryPolicy>;
  /** GetUpload polling while SCANNING, when the server's own wait ended first. Default 2000. */
  pollIntervalMs?: number;
  /** The upload ends in `error` (SCAN_TIMEOUT) when the scan takes longer. Default 10 minutes. */
  scanTimeoutMs?: number;
  /** How often an expired or missing upload is refreshed and sent again. Default 3. */
  maxReuploads?: number;
  /** Parts of a multipart upload in flight at once. Default 3. */
  partConcurrency?: number;
  /**
   * The object of an earlier attempt at this file (`upload.recipe.resume`, kept by the queue):
   * the upload goes on with it, and a multipart upload sends only the parts storage lacks.
   * An object that is gone is started again from InitiateUpload.
   */
  resume?: ResumePoint;
  onState?(state: UploadState, upload: Upload): void;
  onProgress?(progress: UploadProgress, upload: Upload): void;
  onRetry?(info: { step: UploadStep; attempt: number; delayMs: number; error: unknown }, upload: Upload): void;
}

/** What the runner of an upload (the queue) does at points of its run. */
export interface UploadRunHooks {
  /**
   * The upload's object exists and no byte was sent yet; the upload waits for the promise. The
   * queue stores the resume point here: bytes that reach storage are then never lost to a reload,
   * which goes on with this object instead of starting anew.
   */
  objectKnown?(upload: Upload): Promise<void>;
}

/** Complete answers these when the bytes are not (or no longer) in place: send them again. */
const REUPLOAD_REASONS = new Set(["UPLOAD_URL_EXPIRED", "UPLOAD_MISSING"]);

const ended = (object: UploadedObject) => object.status === "READY" || object.status === "REJECTED";
const isTransient = (error: unknown) => (error instanceof UploadError && error.transient) || isTransientApiError(error);

/**
 * One file's upload: idle → initiating → uploading → completing → scanning → ready | rejected,
 * or cancelled / error. `start()` runs it once and resolves (never rejects) when it ended.
 */
export class Upload {
  state: UploadState = "idle";
  progress: UploadProgress;
  object?: UploadedObject;
  error?: UploadError;
  private target?: UploadTarget;
  private plan?: PartPlan;
  private resumePoint?: ResumePoint;
  private running?: Promise<Upload>;
  private readonly controller = new AbortController();
  private readonly listeners = new Set<(upload: Upload) => void>();
  private readonly clock: Clock;
  private readonly network: NetworkStatus;
  private readonly retryPolicy: RetryPolicy;

  constructor(
    readonly file: UploadFile,
    private readonly options: UploadOptions,
  ) {
    this.progress = { loaded: 0, total: file.size, percentage: 0 };
    this.clock = options.clock ?? browserClock;
    this.network = options.network ?? defaultNetwork();
    this.retryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  }

  get contentType(): string {
    return normalizeContentType(this.options.contentType ?? this.file.type);
  }

  get filename(): string {
    return this.options.filename ?? this.file.name;
  }

  get finished(): boolean {
    return END_STATES.has(this.state);
  }

  /** What the queue stores to create this upload again after a reload (queue-store.ts). */
  get recipe(): UploadRecipe {
    const { objectClass, ownerEntityType, ownerEntityId } = this.options;
    const recipe: UploadRecipe = { objectClass, ownerEntityType, ownerEntityId, contentType: this.contentType, filename: this.filename };
    const resume = this.resumePoint ?? this.options.resume;
    return resume ? { ...recipe, resume } : recipe;
  }

  /** A new upload of the same file with the same options: how a failed one is retried (it resumes its object). */
  again(): Upload {
    return new Upload(this.file, { ...this.options, resume: this.resumePoint ?? this.options.resume });
  }

  start(hooks: UploadRunHooks = {}): Promise<Upload> {
    this.running ??= this.state === "idle" ? this.run(hooks).then(() => this) : Promise.resolve(this);
    return this.running;
  }

  /**
   * Stops the upload while idle, initiating, uploading or completing: the API call or the PUT is
   * aborted and the state becomes `cancelled`. Returns false (and changes nothing) while scanning
   * or once ended: the bytes are stored by then and the scan runs anyway.
   */
  cancel(): boolean {
    if (!CANCELLABLE_STATES.has(this.state)) return false;
    this.setState("cancelled");
    this.controller.abort();
    // Storage drops the parts sent so far, at once, rather than at the abandoned-upload deadline.
    if (this.plan && this.resumePoint) void this.options.api.abort(this.resumePoint.objectId, new AbortController().signal).catch(() => undefined);
    return true;
  }

  /** Calls `listener` after every state or progress change; returns the unsubscribe function. */
  subscribe(listener: (upload: Upload) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async run(hooks: UploadRunHooks): Promise<void> {
    try {
      checkClassRules(this.options.objectClass, { size: this.file.size, type: this.contentType, name: this.filename });
      this.setState("initiating");
      let object = await this.resumeOrInitiate();
      if (object.status === "PENDING_UPLOAD") {
        await hooks.objectKnown?.(this);
        if (this.signal.aborted) throw new CancelledError();
        object = await this.uploadAndComplete(object.id);
      }
      if (!ended(object)) {
        this.setState("scanning");
        object = await this.awaitScan(object.id);
      }
      this.object = object;
      this.setState(object.status === "READY" ? "ready" : "rejected");
    } catch (error) {
      if (error instanceof CancelledError || this.signal.aborted) return; // cancel() already set the state
      this.error = toUploadError(error);
      this.setState("error");
    }
  }

  private async resumeOrInitiate(): Promise<UploadedObject> {
    const resumed = this.options.resume && (await this.resumed(this.options.resume));
    if (resumed) return resumed;
    const started = await this.retrying("initiate", () => this.options.api.initiate(this.request(), this.signal));
    this.target = started.target;
    this.plan = started.multipart;
    this.resumePoint = { objectId: started.object.id, ...(started.multipart && { multipart: started.multipart }) };
    this.object = started.object;
    return started.object;
  }

  /** The object of an earlier attempt as it is now; undefined when it is gone (deleted, expired). */
  private async resumed(point: ResumePoint): Promise<UploadedObject | undefined> {
    try {
      this.object = await this.retrying("initiate", () => this.options.api.getUpload(point.objectId, this.signal));
    } catch (error) {
      if (error instanceof ApiError && error.code === "not_found") return undefined;
      throw error;
    }
    this.plan = point.multipart;
    this.resumePoint = point;
    return this.object;
  }

  private request() {
    const { objectClass, ownerEntityType, ownerEntityId } = this.options;
    const { filename: originalFilename, contentType } = this;
    return { objectClass, ownerEntityType, ownerEntityId, originalFilename, contentType, fileSize: this.file.size, acceptMultipart: true };
  }

  private get signal(): AbortSignal {
    return this.controller.signal;
  }

  private async uploadAndComplete(objectId: string): Promise<UploadedObject> {
    const maxReuploads = this.options.maxReuploads ?? 3;
    for (let reuploads = 0; ; reuploads++) {
      this.setState("uploading");
      if (this.plan) await this.sendParts(objectId, this.plan, maxReuploads);
      else await this.transferWithRefresh(objectId, maxReuploads);
      this.setState("completing");
      try {
        return await this.retrying("complete", () => this.options.api.complete(objectId, { waitForResult: false }, this.signal));
      } catch (error) {
        if (!(error instanceof ApiError) || !REUPLOAD_REASONS.has(error.reason) || reuploads >= maxReuploads) throw error;
        if (error.reason === "UPLOAD_URL_EXPIRED" && !this.plan) await this.refreshTarget(objectId);
      }
    }
  }

  private async sendParts(objectId: string, plan: PartPlan, maxRefreshes: number): Promise<void> {
    await sendMissingParts({
      file: this.file,
      objectId,
      plan,
      api: this.options.api,
      transfer: this.options.transfer ?? xhrTransfer(),
      concurrency: this.options.partConcurrency ?? 3,
      maxRefreshes,
      signal: this.signal,
      now: () => this.clock.now(),
      retrying: (operation) => this.retrying("upload", operation),
      onProgress: (loaded, total) => this.setProgress(loaded, total),
      sha256: webCryptoSha256,
    });
  }

  /** PUTs the bytes; an expired URL (before sending, or a 403 saying so) is refreshed first. */
  private async transferWithRefresh(objectId: string, maxRefreshes: number): Promise<void> {
    for (let refreshes = 0; ; refreshes++) {
      // A resumed single-PUT upload has no URL yet: the one of the lost attempt is not kept.
      if (!this.target || this.clock.now() >= this.target.expiresAt.getTime()) await this.refreshTarget(objectId);
      const response = await this.retrying("upload", () => this.putOnce());
      // 412: If-None-Match refused an overwrite, so an earlier attempt stored the bytes but its
      // answer was lost. Complete verifies the size (and checksum) of what is there.
      if (isSuccess(response) || response.status === 412) {
        this.setProgress(this.file.size, this.file.size);
        return;
      }
      if (!isExpiry(response, this.target!.expiresAt, this.clock.now())) throw refused(response);
      if (refreshes >= maxRefreshes) throw new UploadError("UPLOAD_URL_EXPIRED", "the upload URL kept expiring before the bytes arrived");
      await this.refreshTarget(objectId);
    }
  }

  private async putOnce(): Promise<TransferResponse> {
    const transfer = this.options.transfer ?? xhrTransfer();
    this.setProgress(0, this.file.size);
    const { url, headers } = this.target!;
    const response = await transfer({ url, headers, body: this.file, signal: this.signal, onProgress: (loaded, total) => this.setProgress(loaded, total) });
    return throwIfUnavailable(response);
  }

  private async refreshTarget(objectId: string): Promise<void> {
    this.target = await this.retrying("refresh", () => this.options.api.refreshUploadUrl(objectId, this.signal));
  }

  /** The server waits for the scan (bounded by its own deadline); then GetUpload every 2 s. */
  private async awaitScan(objectId: string): Promise<UploadedObject> {
    const deadline = this.clock.now() + (this.options.scanTimeoutMs ?? 600_000);
    let object: UploadedObject | undefined;
    try {
      object = await this.options.api.complete(objectId, { waitForResult: true }, this.signal);
    } catch (error) {
      if (!isTransient(error)) throw error; // a dropped long wait falls back to polling
    }
    while (!object || !ended(object)) {
      if (this.clock.now() >= deadline) throw new UploadError("SCAN_TIMEOUT", "the scan did not end in time; the file may still become READY");
      await this.clock.sleep(this.options.pollIntervalMs ?? 2000, this.signal);
      object = await this.retrying("scan", () => this.options.api.getUpload(objectId, this.signal));
    }
    return object;
  }

  private retrying<T>(step: UploadStep, operation: () => Promise<T>): Promise<T> {
    return withRetry(operation, {
      policy: this.retryPolicy,
      clock: this.clock,
      random: this.options.random ?? Math.random,
      network: this.network,
      signal: this.signal,
      isTransient,
      onRetry: (info) => this.options.onRetry?.({ step, ...info }, this),
    });
  }

  private setProgress(loaded: number, total: number): void {
    if (this.finished) return;
    const percentage = total > 0 ? Math.min(100, Math.floor((loaded * 100) / total)) : 0;
    this.progress = { loaded, total, percentage };
    this.options.onProgress?.(this.progress, this);
    this.notify();
  }

  private setState(state: UploadState): void {
    if (this.finished || this.state === state) return;
    this.state = state;
    this.options.onState?.(state, this);
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener(this);
  }
}

export function createUpload(file: UploadFile, options: UploadOptions): Upload {
  return new Upload(file, options);
}

function defaultNetwork(): NetworkStatus {
  return typeof window !== "undefined" && typeof navigator !== "undefined" ? browserNetwork() : alwaysOnline;
}

