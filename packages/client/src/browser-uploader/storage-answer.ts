import { UploadError } from "./errors.js";
import type { TransferResponse } from "./upload-api.js";

export const isSuccess = (response: TransferResponse) => response.status >= 200 && response.status < 300;

/** A 5xx from storage is worth another attempt (with backoff); anything else is its answer. */
export function throwIfUnavailable(response: TransferResponse): TransferResponse {
  if (response.status >= 500) {
    throw new UploadError("UNAVAILABLE", `the storage backend answered ${response.status}`, { transient: true, status: response.status });
  }
  return response;
}

/** A 403 saying the signature expired, or any 403 once the URL's expiry passed: sign again. */
export function isExpiry(response: TransferResponse, expiresAt: Date, now: number): boolean {
  if (response.status !== 403) return false;
  return /expired/i.test(response.body) || now >= expiresAt.getTime();
}

export function refused(response: TransferResponse): UploadError {
  return new UploadError("TRANSFER_REFUSED", `the storage backend refused the upload (${response.status}) ${s3Message(response.body)}`.trim(), {
    status: response.status,
  });
}

/** The `<Message>` of an S3 XML error body, for a readable error. */
function s3Message(body: string): string {
  return /<Message>([^<]*)<\/Message>/.exec(body)?.[1] ?? "";
}
