import type { HeldPart, PartPlan, PartTarget, PartToSign, UploadRequest, UploadTarget, UploadedObject } from "./types.js";

/**
 * The API calls of an upload. Implementations throw ApiError (code + ErrorInfo reason) and
 * stop when `signal` aborts. `createConnectUploadApi` is the real one; tests pass fakes.
 */
export interface UploadApi {
  /** `multipart` when the server wants the bytes in parts; `target` (one PUT) otherwise. */
  initiate(request: UploadRequest, signal: AbortSignal): Promise<{ object: UploadedObject; target?: UploadTarget; multipart?: PartPlan }>;
  /** Idempotent: a second call returns the object as it is (and may wait for the scan). */
  complete(objectId: string, options: { waitForResult: boolean }, signal: AbortSignal): Promise<UploadedObject>;
  refreshUploadUrl(objectId: string, signal: AbortSignal): Promise<UploadTarget>;
  getUpload(objectId: string, signal: AbortSignal): Promise<UploadedObject>;
  /** Multipart: signs PUT URLs for these parts (at most 100 per call). */
  signParts(objectId: string, parts: PartToSign[], signal: AbortSignal): Promise<PartTarget[]>;
  /** Multipart: the parts storage already holds, ascending. */
  listParts(objectId: string, signal: AbortSignal): Promise<HeldPart[]>;
  /** Multipart: storage drops the parts and the object is deleted. */
  abort(objectId: string, signal: AbortSignal): Promise<void>;
}

export interface TransferRequest {
  url: string;
  headers: Record<string, string>;
  body: Blob;
  signal: AbortSignal;
  onProgress(loaded: number, total: number): void;
}

/** The storage backend's answer; the body matters only for error statuses (S3 XML). */
export interface TransferResponse {
  status: number;
  body: string;
}

/**
 * Sends the bytes with PUT. Resolves with any HTTP answer; rejects with UploadError NETWORK
 * (transient) when no answer came, with CancelledError when `signal` aborted.
 */
export type Transfer = (request: TransferRequest) => Promise<TransferResponse>;
