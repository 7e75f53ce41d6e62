import type { Actor } from "../../domain/actor.js";
import type { Cursor } from "../../domain/pagination.js";
import type { ObjectRef } from "../../domain/files/object-ref.js";
import type { ExpiryCandidate } from "../../domain/files/retention.js";
import type { ScanSettlement } from "../../domain/files/scan-settlement.js";
import type { RestoreCandidate } from "../../domain/files/supersession.js";
import type { UploadMismatch } from "../../domain/files/upload-verification.js";
import type { AuditActionName, ObjectRecord, ScanResultView, StoredObjectView } from "../../domain/files/stored-object.js";

export interface ListFilter {
  ownerEntityType?: string;
  ownerEntityId?: string;
  isCurrent?: boolean;
  objectClass?: string;
  status?: string;
}

/** A deleted row the sweep still owes a storage delete, with its keyset position. */
export interface PendingStorageDelete {
  tenantId: string;
  id: string;
  deletedAt: Date;
}

export interface StorageDeleteFailure {
  message: string;
  maxFailedRuns: number;
  at: Date;
}

export interface RecordedFailure {
  failedRuns: number;
  abandoned: boolean;
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

/** What a transition that may make a photo or logo current reports. */
export interface Settled {
  changed: boolean;
  /** Objects that stopped being current: their workflows must re-arm their timers. */
  superseded: string[];
  /** The object as the step left it, where the write answered it (saves the read after). */
  record?: ObjectRecord;
}

/**
 * The files store in domain terms. Every method is scoped by tenant (but the sweep's), and every
 * state change states its precondition in the write itself and writes its audit entry in the
 * same transaction: repeating a call after it succeeded changes nothing and answers `false`.
 */
export interface StoredObjects {
  findLive(tenantId: string, id: string): Promise<StoredObjectView | undefined>;
  /** Soft-deleted rows too: the lifecycle must see why its object is gone. */
  findRecord(tenantId: string, id: string): Promise<ObjectRecord | undefined>;
  latestSession(tenantId: string, objectId: string): Promise<UploadSession | undefined>;
  /** Who initiated the object: the actor of its first upload session (a refresh adds later ones). */
  initiatorOf(tenantId: string, objectId: string): Promise<string | undefined>;
  list(tenantId: string, filter: ListFilter, after: Cursor | undefined, limit: number): Promise<StoredObjectView[]>;

  /**
   * Stores the initiated object unless its tenant holds `maxPending` objects in PENDING_UPLOAD
   * already: then nothing is written and the answer is undefined.
   */
  createInitiated(object: NewStoredObject, session: UploadSession, audit: AuditRecord, maxPending: number): Promise<StoredObjectView | undefined>;
  addSession(session: UploadSession, audit: AuditRecord): Promise<boolean>;
  /** PENDING_UPLOAD → SCANNING. */
  markCompleted(actor: Actor, id: string, md5: string, now: Date): Promise<boolean>;
  /** PENDING_UPLOAD → READY/REJECTED in one step: complete with an inline scan. */
  completeAndSettle(actor: Actor, id: string, md5: string, result: ScanResultView, settlement: ScanSettlement, now: Date): Promise<Settled>;
  /** SCANNING → READY/REJECTED. */
  finishScan(actor: Actor, id: string, result: ScanResultView, settlement: ScanSettlement, now: Date): Promise<Settled>;
  /** A failed verification of a PENDING_UPLOAD object: soft-deleted, the bucket delete owed. */
  failUpload(actor: Actor, id: string, reason: UploadMismatch["reason"], details: Record<string, unknown>, now: Date): Promise<boolean>;
  /** Soft-deletes when `isDue` holds for the row as it is under its lock. */
  expire(actor: Actor, id: string, now: Date, isDue: (candidate: ExpiryCandidate) => boolean): Promise<boolean>;
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
  markStorageDeleted(tenantId: string, id: string): Promise<void>;
  audit(record: AuditRecord): Promise<void>;
  /** Writes the entry unless one with the same object, action, result and correlation id exists (a retried call or activity). */
  auditOnce(record: AuditRecord): Promise<void>;

  /** Sweep, across tenants: live rows whose deadline passed (a pre-filter; `expire` decides). */
  overdue(now: Date, limit: number, after?: Cursor): Promise<ObjectRecord[]>;
  /** Sweep: objects SCANNING since before `uploadedBefore` (their scan should have ended). */
  stuckScans(uploadedBefore: Date, limit: number): Promise<ObjectRecord[]>;
  /**
   * Deleted rows whose bucket object is still there, in (deletedAt, id) order after `after`:
   * rows the sweep gave up on are left out, and so are those that already failed in the run
   * `skipFailedIn` (the sweep's own correlation).
   */
  pendingStorageDeletes(limit: number, after: Cursor | undefined, skipFailedIn: string): Promise<PendingStorageDelete[]>;
  /**
   * Counts a failed storage delete against the row, once per run (the actor's correlation), and
   * gives up on it at `maxFailedRuns`; audits the first failure and the give-up. Undefined when
   * this run had already counted it (or the delete is no longer owed).
   */
  recordStorageDeleteFailure(actor: Actor, id: string, failure: StorageDeleteFailure): Promise<RecordedFailure | undefined>;
  liveStorageKeys(keys: string[]): Promise<Set<string>>;
}

export interface LifecycleStart {
  objectClass: string;
  ownerEntityType: string;
  pendingDeadline: Date;
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
  /** Starts the object's workflow at initiate. */
  start(ref: ObjectRef, start: LifecycleStart): Promise<void>;
  /** Ends the workflow of an object whose rows were never stored. */
  withdraw(ref: ObjectRef, reason: string): Promise<void>;
  /** Removes the workflow of an initiate that was refused, history and all: it never was. */
  discard(ref: ObjectRef): Promise<void>;
  /** Verifies the upload; with `waitSeconds`, answers once the scan ended. */
  complete(ref: ObjectRef, args: CompleteArgs): Promise<StoredObjectView>;
  /** The object's persisted state changed outside its workflow: it re-reads it. */
  retentionChanged(ref: ObjectRef): Promise<void>;
}
