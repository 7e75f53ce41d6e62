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
  /** The uploader sends big files in parts: the server answers `multipart` above its threshold. */
  acceptMultipart: boolean;
}

/** How the server cut a multipart upload: every part but the last has `partSize` bytes. */
export interface PartPlan {
  partSize: number;
  partCount: number;
}

/** A part to sign: its number, exact length and (base64) SHA-256, which storage then checks. */
export interface PartToSign {
  partNumber: number;
  contentLength: number;
  contentSha256?: string;
}

/** Where and how to PUT one part. */
export interface PartTarget extends UploadTarget {
  partNumber: number;
}

/** A part storage already holds. */
export interface HeldPart {
  partNumber: number;
  size: number;
}

/**
 * Where an upload stands once its object exists: enough to go on after a reload instead of
 * starting again (a multipart upload then sends only the parts storage lacks).
 */
export interface ResumePoint {
  objectId: string;
  multipart?: PartPlan;
}

/** The part of a browser `File` the uploader reads; a `Blob` with a name. */
export interface UploadFile extends Blob {
  readonly name: string;
}
