/**
 * One error type with a closed set of reasons. `transient` failures (network, 5xx, unavailable)
 * are retried with backoff; everything else ends the upload in state `error` at once.
 */
export type UploadErrorReason =
  /** A class rule refused the file before any request. */
  | "UNKNOWN_OBJECT_CLASS"
  | "CONTENT_TYPE_NOT_ALLOWED"
  | "FILE_TOO_LARGE"
  | "EMPTY_FILE"
  /** The network failed or the server was unavailable, after every attempt. */
  | "NETWORK"
  | "UNAVAILABLE"
  /** The upload URL kept expiring, even after refreshing it. */
  | "UPLOAD_URL_EXPIRED"
  /** The storage backend refused the PUT for another reason than expiry. */
  | "TRANSFER_REFUSED"
  /** The scan did not end within `scanTimeoutMs`. */
  | "SCAN_TIMEOUT"
  /** Anything the API refused, with the API's own reason in `apiReason`. */
  | "API_ERROR"
  /** A bug or an answer of an unexpected shape. */
  | "UNEXPECTED";

export class UploadError extends Error {
  override readonly name = "UploadError";

  constructor(
    readonly reason: UploadErrorReason,
    message: string,
    readonly options: { transient?: boolean; apiReason?: string; status?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
  }

  get transient(): boolean {
    return this.options.transient ?? false;
  }
}

/**
 * What the API adapter throws: the Connect code name (`unavailable`, `invalid_argument`, ...) and
 * the stable reason of the error's `google.rpc.ErrorInfo` (`UPLOAD_URL_EXPIRED`, ...).
 */
export class ApiError extends Error {
  override readonly name = "ApiError";

  constructor(
    readonly code: string,
    readonly reason: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/** Codes worth another attempt: the server or the path to it failed, not the request. */
const TRANSIENT_CODES = new Set(["unavailable", "unknown", "internal", "deadline_exceeded"]);

export function isTransientApiError(error: unknown): boolean {
  return error instanceof ApiError && TRANSIENT_CODES.has(error.code);
}

/** Thrown by abortable steps when the upload is cancelled; never shown as an error. */
export class CancelledError extends Error {
  override readonly name = "CancelledError";

  constructor() {
    super("upload cancelled");
  }
}

/** API reasons the uploader reports under the same name (the class rules, expiry). */
const SAME_REASONS: readonly UploadErrorReason[] = ["UNKNOWN_OBJECT_CLASS", "CONTENT_TYPE_NOT_ALLOWED", "FILE_TOO_LARGE", "UPLOAD_URL_EXPIRED"];
const isSameReason = (reason: string): reason is UploadErrorReason => (SAME_REASONS as readonly string[]).includes(reason);

/** What an upload that ended in `error` reports, whatever was thrown. */
export function toUploadError(error: unknown): UploadError {
  if (error instanceof UploadError) return error;
  if (error instanceof ApiError) {
    if (isTransientApiError(error)) return new UploadError("UNAVAILABLE", error.message, { transient: true, apiReason: error.reason, cause: error });
    if (isSameReason(error.reason)) return new UploadError(error.reason, error.message, { apiReason: error.reason, cause: error });
    return new UploadError("API_ERROR", error.message, { apiReason: error.reason, cause: error });
  }
  return new UploadError("UNEXPECTED", error instanceof Error ? error.message : String(error), { cause: error });
}
