import type { Actor } from "../../domain/actor.js";
import type { CallScope } from "../../domain/call-scope.js";
import type { Cursor } from "../../domain/pagination.js";
import type { ObjectRef } from "../../domain/files/object-ref.js";
import type { RestoreCandidate } from "../../domain/files/supersession.js";
import type { AuditActionName, ObjectRecord, StoredObjectView } from "../../domain/files/stored-object.js";

export interface ListFilter {
  ownerEntityType?: string;
  ownerEntityId?: string;
  isCurrent?: boolean;
  objectClass?: string;
  status?: string;
}

export interface AuditRecord {
  objectId: string;
  action: AuditActionName;
  actor: Actor;
  result?: "SUCCESS" | "FAILURE";
  details?: Record<string, unknown>;
  at: Date;
}

/** What a signed upload URL allowed: kept as an audit record of the object, outliving it. */
export interface UploadSession {
  id: string;
  tenantId: string;
  objectId: string;
  initiatedBy: string;
  presignExpiresAt: Date;
  expectedContentType: string;
  expectedFileSize: number;
  contentMd5: string | null;
  contentSha256: string | null;
  policySnapshot: Record<string, unknown>;
  createdAt: Date;
}

/** A new object as initiate declares it (PENDING_UPLOAD until complete). */
export interface NewStoredObject {
  id: string;
  tenantId: string;
  storageKey: string;
  objectClass: string;
  ownerEntityType: string;
  ownerEntityId: string;
  originalFilename: string;
  contentType: string;
  fileSize: number;
  pendingDeadline: Date;
  workflowId: string;
  createdAt: Date;
}

/**
 * The API's object catalog: what the upload use cases read and change. Every method is scoped by
 * tenant, and every state change states its precondition in the write itself and writes its audit
 * entry in the same transaction: repeating a call after it succeeded changes nothing. The
 * lifecycle's rows are in lifecycle/port.ts, the sweep's in sweep/port.ts.
 */
export interface ObjectCatalog {
  findLive(tenantId: string, id: string): Promise<StoredObjectView | undefined>;
  /** Soft-deleted rows too: a refusal is audited on an object whatever its state. */
  findRecord(tenantId: string, id: string): Promise<ObjectRecord | undefined>;
  latestSession(tenantId: string, objectId: string): Promise<UploadSession | undefined>;
  /** Who initiated the object: the actor of its first upload session (a refresh adds later ones). */
  initiatorOf(tenantId: string, objectId: string): Promise<string | undefined>;
  list(tenantId: string, filter: ListFilter, after: Cursor | undefined, limit: number): Promise<StoredObjectView[]>;

  /**
   * Stores the initiated object unless its tenant holds `maxPending` objects in PENDING_UPLOAD
   * already: then nothing is written and the answer is undefined. With `call`, the write is
   * bounded by its remaining time: cut off, it commits nothing and fails DEADLINE_EXCEEDED.
   */
  createInitiated(object: NewStoredObject, session: UploadSession, audit: AuditRecord, maxPending: number, call?: CallScope): Promise<StoredObjectView | undefined>;
  addSession(session: UploadSession, audit: AuditRecord): Promise<boolean>;
  /** "held": refused by the legal hold (domain/files/legal-hold.ts), nothing written. */
  softDelete(actor: Actor, id: string, now: Date): Promise<"deleted" | "held" | "missing">;
  setHold(actor: Actor, id: string, hold: { reason: string } | null, now: Date): Promise<"changed" | "unchanged" | "missing">;
  /**
   * A superseded photo or logo becomes current again when `canRestore` holds for its row read under lock; answers
   * the ids it displaced, or undefined when the locked row was no longer restorable.
   */
  restore(
    actor: Actor,
    id: string,
    settlement: { retentionPolicy: string; retentionExpiresAt: Date | null; supersededExpiresAt: Date },
    now: Date,
    canRestore: (candidate: RestoreCandidate) => boolean,
  ): Promise<string[] | undefined>;
  /** The bucket delete a user delete owes is done (see lifecycle/storage-delete.ts). */
  markStorageDeleted(tenantId: string, id: string): Promise<void>;
  audit(record: AuditRecord): Promise<void>;
  /** Writes the entry unless one with the same object, action, result and correlation id exists (a retried call or activity). */
  auditOnce(record: AuditRecord): Promise<void>;
}

export interface LifecycleStart {
  objectClass: string;
  ownerEntityType: string;
  pendingDeadline: Date;
  /** Parts of an S3 multipart upload, or one signed PUT. */
  uploadMode: "MULTIPART" | "SINGLE_PUT";
}

export interface CompleteArgs {
  checksum?: string;
  actorId: string;
  requestId?: string;
  /** Answer once the scan ended (READY or REJECTED), waiting at most this long. 0: at once. */
  waitSeconds: number;
}

/** The object's workflow, as the use cases drive it (Temporal in src/adapters/temporal). */
export interface ObjectLifecycle {
  /** Starts the object's workflow at initiate; `call`'s signal cancels the request. */
  start(ref: ObjectRef, start: LifecycleStart, call?: CallScope): Promise<void>;
  /** Ends the workflow of an object whose rows were never stored. */
  withdraw(ref: ObjectRef, reason: string): Promise<void>;
  /** Removes the workflow of an initiate that was refused, history and all: it never was. */
  discard(ref: ObjectRef): Promise<void>;
  /** Verifies the upload; with `waitSeconds`, answers once the scan ended. */
  complete(ref: ObjectRef, args: CompleteArgs): Promise<StoredObjectView>;
  /** The object's persisted state changed outside its workflow: it re-reads it. */
  retentionChanged(ref: ObjectRef, why: LifecycleWake): Promise<void>;
}

/**
 * Why an object's workflow is told to re-read its state. It is the summary of the run the call
 * starts when none is running, so that each run of an object says in the Temporal UI and
 * `temporal workflow list` why it began.
 */
export type LifecycleWake =
  | "legal hold placed"
  | "legal hold released"
  | "delete requested"
  | "restored"
  | "superseded by a newer upload"
  | "superseded by a restored upload"
  | "scan re-driven by the sweep"
  | "quarantined by a malware re-scan";

export interface PresignedUpload {
  url: string;
  expiresAt: Date;
  /** Headers (name to value) the PUT must carry exactly: they are part of the signature. */
  headers: Record<string, string>;
}

export interface UploadBinding {
  key: string;
  contentType: string;
  contentLength: number;
  /** Hex MD5 the bytes must have; bound as Content-MD5. */
  md5Hex?: string;
  /** Hex SHA-256 the bytes must have; bound as x-amz-checksum-sha256. */
  sha256Hex?: string;
  expiresInSeconds: number;
}

export interface StoredObjectHead {
  size: number;
  contentType?: string;
  /** The ETag without quotes; the MD5 of the bytes for single-part unencrypted-by-KMS uploads. */
  etag?: string;
  lastModified?: Date;
}

export interface DownloadBinding {
  key: string;
  filename: string;
  disposition: "attachment" | "inline";
  contentType: string;
  expiresInSeconds: number;
}

export interface BucketObject {
  key: string;
  lastModified: Date;
}

/** The first bytes of a stored object with what the same read tells of the whole object. */
export interface StoredObjectPrefix {
  bytes: Uint8Array;
  /** Size of the whole object. */
  size: number;
  /** The ETag without quotes (see StoredObjectHead). */
  etag?: string;
}

/**
 * A read of a whole stored object, begun: what its response tells of the object, and its bytes as
 * they arrive. Whoever opens one either reads `body` to its end or calls `cancel`.
 */
export interface OpenedObject {
  size: number;
  /** The ETag without quotes (see StoredObjectHead). */
  etag?: string;
  body: AsyncIterable<Uint8Array>;
  /** Ends the read before its end (the socket is not reused). Idempotent. */
  cancel(): void;
}

/** What a signed UploadPart URL binds. */
export interface PartBinding {
  key: string;
  uploadId: string;
  partNumber: number;
  contentLength: number;
  /** Base64 SHA-256 the part must have; bound as x-amz-checksum-sha256. */
  sha256Base64?: string;
  expiresInSeconds: number;
}

/** A part storage holds for a multipart upload. */
export interface StoredPart {
  partNumber: number;
  size: number;
  /** Without quotes. */
  etag: string;
  checksumSha256?: string;
}

/** An incomplete multipart upload in the bucket. */
export interface PendingMultipartUpload {
  key: string;
  uploadId: string;
  initiatedAt: Date;
}

/**
 * Multipart uploads (S3 CreateMultipartUpload and the rest). The upload id never leaves the
 * server: storage answers it for the object's key, which is unique to the object.
 */
export interface MultipartStorage {
  /** Starts a multipart upload of the key with the type and encryption a single PUT binds; `call`'s signal cancels the request. */
  startMultipart(key: string, contentType: string, call?: CallScope): Promise<void>;
  /** The key's incomplete multipart upload (the newest when several), or undefined. */
  findMultipart(key: string): Promise<string | undefined>;
  presignPart(binding: PartBinding, now: Date): Promise<PresignedUpload>;
  /** Every part storage holds, ascending part numbers; undefined when the upload is gone (completed or aborted meanwhile). */
  listParts(key: string, uploadId: string): Promise<StoredPart[] | undefined>;
  /**
   * Completes the upload with these parts, never overwriting a stored object. "gone": the upload no
   * longer exists or the key already holds an object (another complete won, or it was aborted).
   */
  completeMultipart(key: string, uploadId: string, parts: readonly StoredPart[]): Promise<"completed" | "gone">;
  /** Aborts every incomplete multipart upload of the key; answers how many. Idempotent. */
  abortMultipart(key: string): Promise<number>;
  /** Incomplete multipart uploads started before `before`, one page (by key marker). */
  listStaleMultipart(before: Date, after?: { key: string; uploadId: string }): Promise<{ uploads: PendingMultipartUpload[]; next?: { key: string; uploadId: string } }>;
  abortMultipartUpload(key: string, uploadId: string): Promise<void>;
}

/**
 * What the service needs of an S3-compatible bucket (src/adapters/s3 implements it): the API's
 * use cases, the lifecycle and the sweep each take the methods they call.
 */
export interface ObjectStorage extends MultipartStorage {
  presignUpload(binding: UploadBinding, now: Date): Promise<PresignedUpload>;
  presignDownload(binding: DownloadBinding, now: Date): Promise<{ url: string; expiresAt: Date }>;
  head(key: string): Promise<StoredObjectHead | undefined>;
  readRange(key: string, offset: number, length: number): Promise<Uint8Array>;
  /**
   * One ranged read of the first `length` bytes that also answers the object's size and ETag
   * (from Content-Range), so complete needs no separate HEAD; undefined when nothing is stored.
   */
  readPrefix(key: string, length: number): Promise<StoredObjectPrefix | undefined>;
  /** One read of the whole object, begun; undefined when nothing is stored. */
  open(key: string): Promise<OpenedObject | undefined>;
  stream(key: string): AsyncIterable<Uint8Array>;
  /** Idempotent: deleting a missing key succeeds. */
  delete(key: string): Promise<void>;
  setLegalHold(key: string, on: boolean): Promise<void>;
  list(prefix: string, startAfter?: string): Promise<{ objects: BucketObject[]; nextStartAfter?: string }>;
  ping(): Promise<void>;
}
