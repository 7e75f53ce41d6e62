import { ApiError, CancelledError } from "../../../packages/client/src/browser-uploader/errors.js";
import type { Clock, NetworkStatus } from "../../../packages/client/src/browser-uploader/runtime.js";
import type {
  HeldPart,
  ObjectStatusName,
  PartPlan,
  PartTarget,
  PartToSign,
  UploadRequest,
  UploadTarget,
  UploadedObject,
} from "../../../packages/client/src/browser-uploader/types.js";
import type { Transfer, TransferRequest, TransferResponse, UploadApi } from "../../../packages/client/src/browser-uploader/upload-api.js";
import { createUpload, type UploadOptions } from "../../../packages/client/src/browser-uploader/uploader.js";
import type { UploadState } from "../../../packages/client/src/browser-uploader/types.js";

export const OBJECT_ID = "0190f0c0-0000-7000-8000-000000000001";

/** Time that moves only when the code under test sleeps; every delay is recorded. */
export class FakeClock implements Clock {
  time = 1_700_000_000_000;
  readonly sleeps: number[] = [];

  now() {
    return this.time;
  }

  async sleep(ms: number, signal?: AbortSignal) {
    if (signal?.aborted) throw new CancelledError();
    this.sleeps.push(ms);
    this.time += ms;
    await Promise.resolve();
    if (signal?.aborted) throw new CancelledError();
  }
}

export class FakeNetwork implements NetworkStatus {
  private readonly listeners = new Set<(online: boolean) => void>();

  constructor(public online = true) {}

  isOnline() {
    return this.online;
  }

  subscribe(listener: (online: boolean) => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  set(online: boolean) {
    this.online = online;
    for (const listener of [...this.listeners]) listener(online);
  }

  get listenerCount() {
    return this.listeners.size;
  }
}

/** Never settles by itself; rejects as a real call does when the signal aborts. */
export function hang<T>(signal: AbortSignal): Promise<T> {
  return new Promise((_, reject) => signal.addEventListener("abort", () => reject(new ApiError("canceled", "CANCELED", "aborted")), { once: true }));
}

export function storedObject(status: ObjectStatusName, overrides: Partial<UploadedObject> = {}): UploadedObject {
  return {
    id: OBJECT_ID,
    status,
    objectClass: "USER_PROFILE_PHOTO",
    ownerEntityType: "User",
    ownerEntityId: "u1",
    originalFilename: "me.png",
    contentType: "image/png",
    fileSize: 1000,
    isCurrent: false,
    ...overrides,
  };
}

export const unavailable = () => new ApiError("unavailable", "UNAVAILABLE", "server unavailable");

type Handlers = {
  initiate(request: UploadRequest, signal: AbortSignal): Promise<{ object: UploadedObject; target?: UploadTarget; multipart?: PartPlan }>;
  complete(objectId: string, options: { waitForResult: boolean }, signal: AbortSignal): Promise<UploadedObject>;
  refreshUploadUrl(objectId: string, signal: AbortSignal): Promise<UploadTarget>;
  getUpload(objectId: string, signal: AbortSignal): Promise<UploadedObject>;
  signParts(objectId: string, parts: PartToSign[], signal: AbortSignal): Promise<PartTarget[]>;
  listParts(objectId: string, signal: AbortSignal): Promise<HeldPart[]>;
  abort(objectId: string, signal: AbortSignal): Promise<void>;
};

const PART_URL = "https://storage.test/part?n=";

/** The part number of a part PUT's URL (signed by FakeApi); undefined for a single PUT. */
export const partNumberOf = (url: string) => (url.startsWith(PART_URL) ? Number(url.slice(PART_URL.length)) : undefined);

/** The API with the server's happy path by default; tests replace single handlers. */
export class FakeApi implements UploadApi {
  readonly calls: string[] = [];
  /** The parts storage holds (number → size): FakeTransfer's part PUTs add to it. */
  readonly held = new Map<number, number>();
  readonly signed: PartToSign[] = [];
  private refreshes = 0;
  handlers: Handlers;

  constructor(private readonly clock: FakeClock) {
    this.handlers = {
      initiate: async () => ({ object: storedObject("PENDING_UPLOAD"), target: this.target(1) }),
      complete: async (_id, { waitForResult }) => storedObject(waitForResult ? "READY" : "SCANNING"),
      refreshUploadUrl: async () => this.target(++this.refreshes + 1),
      getUpload: async () => storedObject("READY"),
      signParts: async (_id, parts) =>
        parts.map(({ partNumber }) => ({ partNumber, url: `${PART_URL}${partNumber}`, headers: {}, expiresAt: new Date(this.clock.now() + 300_000) })),
      listParts: async () => [...this.held].sort(([a], [b]) => a - b).map(([partNumber, size]) => ({ partNumber, size })),
      abort: async () => undefined,
    };
  }

  /** InitiateUpload answers a multipart upload with this plan. */
  answerMultipart(plan: PartPlan): this {
    this.handlers.initiate = async () => ({ object: storedObject("PENDING_UPLOAD"), multipart: plan });
    return this;
  }

  target(n: number): UploadTarget {
    return { url: `https://storage.test/put?sig=${n}`, headers: { "content-type": "image/png", "x-sig": String(n) }, expiresAt: new Date(this.clock.now() + 300_000) };
  }

  initiate(request: UploadRequest, signal: AbortSignal) {
    this.calls.push("initiate");
    return this.handlers.initiate(request, signal);
  }

  complete(objectId: string, options: { waitForResult: boolean }, signal: AbortSignal) {
    this.calls.push(options.waitForResult ? "complete(wait)" : "complete");
    return this.handlers.complete(objectId, options, signal);
  }

  refreshUploadUrl(objectId: string, signal: AbortSignal) {
    this.calls.push("refresh");
    return this.handlers.refreshUploadUrl(objectId, signal);
  }

  getUpload(objectId: string, signal: AbortSignal) {
    this.calls.push("get");
    return this.handlers.getUpload(objectId, signal);
  }

  signParts(objectId: string, parts: PartToSign[], signal: AbortSignal) {
    this.calls.push(`sign(${parts.map((part) => part.partNumber).join(",")})`);
    this.signed.push(...parts);
    return this.handlers.signParts(objectId, parts, signal);
  }

  listParts(objectId: string, signal: AbortSignal) {
    this.calls.push("list");
    return this.handlers.listParts(objectId, signal);
  }

  abort(objectId: string, signal: AbortSignal) {
    this.calls.push("abort");
    return this.handlers.abort(objectId, signal);
  }
}

/** Reports progress in quarters, then answers what `respond` says (200 by default). */
export class FakeTransfer {
  readonly requests: TransferRequest[] = [];
  respond: (request: TransferRequest, attempt: number) => Promise<TransferResponse> = async () => ({ status: 200, body: "" });

  readonly transfer: Transfer = async (request) => {
    this.requests.push(request);
    const total = request.body.size;
    for (const part of [0.25, 0.5, 0.75]) request.onProgress(Math.floor(total * part), total);
    return this.respond(request, this.requests.length);
  };
}

export function pngFile(size = 1000, name = "me.png", type = "image/png") {
  return new File([new Uint8Array(size)], name, { type });
}

/** An upload wired to fakes, recording every state and progress report. */
export function harness(overrides: Partial<UploadOptions> = {}, file = pngFile()) {
  const clock = new FakeClock();
  const api = new FakeApi(clock);
  const transfer = new FakeTransfer();
  const network = new FakeNetwork();
  const states: UploadState[] = [];
  const percentages: number[] = [];
  const upload = createUpload(file, {
    objectClass: "USER_PROFILE_PHOTO",
    ownerEntityType: "User",
    ownerEntityId: "u1",
    api,
    transfer: transfer.transfer,
    clock,
    network,
    random: () => 0.5,
    onState: (state) => states.push(state),
    onProgress: (progress) => percentages.push(progress.percentage),
    ...overrides,
  });
  return { upload, api, transfer, clock, network, states, percentages };
}

/** Lets pending promise callbacks run. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
