/**
 * Sends a multipart upload's parts: it asks storage which parts it holds (so a resumed upload
 * sends only the rest), then sends the others a few at a time, each signed just before it goes
 * with its length and SHA-256, so that storage refuses bytes that changed on the way.
 */
import { UploadError } from "./errors.js";
import { isExpiry, isSuccess, refused, throwIfUnavailable } from "./storage-answer.js";
import type { PartPlan, PartTarget } from "./types.js";
import type { Transfer, TransferResponse, UploadApi } from "./upload-api.js";

export interface PartTransferContext {
  file: Blob;
  objectId: string;
  plan: PartPlan;
  api: UploadApi;
  transfer: Transfer;
  /** Parts in flight at once. */
  concurrency: number;
  /** How often one part's URL may expire before the upload gives up. */
  maxRefreshes: number;
  signal: AbortSignal;
  now(): number;
  /** Runs one step with the upload's retries and backoff. */
  retrying<T>(operation: () => Promise<T>): Promise<T>;
  onProgress(loaded: number, total: number): void;
  /** Base64 SHA-256 of a part; undefined sends the part without one (no Web Crypto). */
  sha256?(part: Blob): Promise<string>;
}

export interface PartsSent {
  /** Parts storage already held, which were not sent again. */
  held: number;
  sent: number;
}

interface Range {
  partNumber: number;
  start: number;
  end: number;
}

/** The byte ranges of the plan: every part `partSize` bytes, the last one what remains. */
export function partRanges(size: number, plan: PartPlan): Range[] {
  const ranges: Range[] = [];
  for (let start = 0, partNumber = 1; start < size; start += plan.partSize, partNumber++) {
    ranges.push({ partNumber, start, end: Math.min(size, start + plan.partSize) });
  }
  return ranges;
}

export async function sendMissingParts(context: PartTransferContext): Promise<PartsSent> {
  const { file, objectId, api } = context;
  const ranges = partRanges(file.size, context.plan);
  const held = await context.retrying(() => api.listParts(objectId, context.signal));
  // A held part of another length (cut with another part size) is sent again, replacing it.
  const heldSizes = new Map(held.map((part) => [part.partNumber, part.size]));
  const missing = ranges.filter((range) => heldSizes.get(range.partNumber) !== range.end - range.start);
  const progress = new PartProgress(file.size, file.size - bytesOf(missing), context.onProgress);
  // One part failing for good stops the others at once: their bytes would be sent for nothing.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  context.signal.addEventListener("abort", onAbort, { once: true });
  const partContext = { ...context, signal: stop.signal };
  const queue = [...missing];
  const worker = async () => {
    while (!stop.signal.aborted && queue.length > 0) await sendPart(partContext, queue.shift()!, progress);
  };
  try {
    await Promise.all(Array.from({ length: Math.min(Math.max(1, context.concurrency), queue.length) }, worker));
  } catch (error) {
    stop.abort();
    throw error;
  } finally {
    context.signal.removeEventListener("abort", onAbort);
  }
  return { held: ranges.length - missing.length, sent: missing.length };
}

const bytesOf = (ranges: readonly Range[]) => ranges.reduce((sum, range) => sum + range.end - range.start, 0);

async function sendPart(context: PartTransferContext, range: Range, progress: PartProgress): Promise<void> {
  const body = context.file.slice(range.start, range.end);
  const contentSha256 = await context.sha256?.(body);
  const sign = async () => {
    const part = { partNumber: range.partNumber, contentLength: body.size, contentSha256 };
    const [target] = await context.retrying(() => context.api.signParts(context.objectId, [part], context.signal));
    if (!target) throw new UploadError("UNEXPECTED", `the server signed no URL for part ${range.partNumber}`);
    return target;
  };
  for (let refreshes = 0; ; refreshes++) {
    const target = await sign();
    const response = await context.retrying(() => putPart(context, target, body, progress));
    if (isSuccess(response)) return progress.done(range.partNumber, body.size);
    if (!isExpiry(response, target.expiresAt, context.now())) throw refused(response);
    if (refreshes >= context.maxRefreshes) throw new UploadError("UPLOAD_URL_EXPIRED", `the URL of part ${range.partNumber} kept expiring before its bytes arrived`);
  }
}

async function putPart(context: PartTransferContext, target: PartTarget, body: Blob, progress: PartProgress): Promise<TransferResponse> {
  progress.sending(target.partNumber, 0);
  const response = await context.transfer({
    url: target.url,
    headers: target.headers,
    body,
    signal: context.signal,
    onProgress: (loaded) => progress.sending(target.partNumber, loaded),
  });
  // Storage computed another SHA-256 than the one signed: the bytes changed on the way. Sending
  // the part again is worth it (the file itself is read again from the same slice).
  if (response.status === 400 && /checksum|digest/i.test(response.body)) {
    throw new UploadError("TRANSFER_REFUSED", `storage refused part ${target.partNumber}: its bytes did not match their SHA-256`, { transient: true, status: 400 });
  }
  return throwIfUnavailable(response);
}

/** The bytes of held and finished parts plus those of the parts on the way. */
class PartProgress {
  private readonly inFlight = new Map<number, number>();

  constructor(
    private readonly total: number,
    private settled: number,
    private readonly report: (loaded: number, total: number) => void,
  ) {
    this.emit();
  }

  sending(partNumber: number, loaded: number): void {
    this.inFlight.set(partNumber, loaded);
    this.emit();
  }

  done(partNumber: number, size: number): void {
    this.inFlight.delete(partNumber);
    this.settled += size;
    this.emit();
  }

  private emit(): void {
    let loaded = this.settled;
    for (const bytes of this.inFlight.values()) loaded += bytes;
    this.report(Math.min(loaded, this.total), this.total);
  }
}
