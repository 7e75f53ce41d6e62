/**
 * The shapes the browser uploader works with. They are plain values (status names, numbers),
 * not the generated Protobuf messages, so that callers and tests need nothing from `gen/`.
 */

/** Client states of the specification; `cancelled` is this library's own end state. */
export type UploadState =
  | "idle"
  | "initiating"
  | "uploading"
  | "completing"
  | "scanning"
  | "ready"
  | "rejected"
  | "cancelled"
  | "error";

export const END_STATES: ReadonlySet<UploadState> = new Set(["ready", "rejected", "cancelled", "error"]);
export const CANCELLABLE_STATES: ReadonlySet<UploadState> = new Set(["idle", "initiating", "uploading", "completing"]);

/** Measured from the transfer itself (`xhr.upload.onprogress`). */
export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0-100, rounded down: 100 only once every byte was sent. */
  percentage: number;
}

export type ObjectStatusName = "PENDING_UPLOAD" | "SCANNING" | "READY" | "REJECTED" | "QUARANTINED";

export interface ScanCheckView {
  name: string;
  passed: boolean;
  reason: string;
  message: string;
}

export interface UploadedObject {
  id: string;
  status: ObjectStatusName;
  objectClass: string;
  ownerEntityType: string;
  ownerEntityId: string;
  originalFilename: string;
  contentType: string;
  fileSize: number;
  isCurrent: boolean;
  isLegalHold?: boolean;
  createdAt?: Date;
  scanResult?: { passed: boolean; checks: ScanCheckView[] };
}

/** Where and how to PUT the bytes: exactly these headers, before `expiresAt`. */
export interface UploadTarget {
  url: string;
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface UploadRequest {
  objectClass: string;
  ownerEntityType: string;
  ownerEntityId: string;
  originalFilename: string;
  contentType: string;
  fileSize: number;
}

/** The part of a browser `File` the uploader reads; a `Blob` with a name. */
export interface UploadFile extends Blob {
  readonly name: string;
}
