import type { Actor } from "../../../domain/actor.js";
import type { EngineVersion, MalwareVerdict } from "../../../domain/files/malware/malware-verdict.js";
import type { ExpiryCandidate } from "../../../domain/files/retention.js";
import type { ScanSettlement } from "../../../domain/files/scan-settlement.js";
import type { ObjectRecord, ScanResultView } from "../../../domain/files/stored-object.js";
import type { UploadMismatch, VerifiedDigests } from "../../../domain/files/upload-verification.js";
import type { ObjectCatalog } from "../port.js";

/** What a transition that may make a photo or logo current reports. */
export interface Settled {
  changed: boolean;
  /** Objects that stopped being current: their workflows must re-arm their timers. */
  superseded: string[];
  /** The object as the step left it, where the write answered it (saves the read after). */
  record?: ObjectRecord;
}

/**
 * The rows the lifecycle steps move (the object's workflow runs them as activities). Every state
 * change states its precondition in the write itself and audits in the same transaction:
 * repeating a step after it succeeded changes nothing and answers `false`.
 */
export interface LifecycleObjects extends Pick<ObjectCatalog, "latestSession" | "markStorageDeleted" | "auditOnce"> {
  /** Soft-deleted rows too: the lifecycle must see why its object is gone. */
  findRecord(tenantId: string, id: string): Promise<ObjectRecord | undefined>;
  /** PENDING_UPLOAD → SCANNING, the verified digests kept on the object and in UPLOAD_COMPLETED. */
  markCompleted(actor: Actor, id: string, digests: VerifiedDigests, now: Date): Promise<boolean>;
  /** PENDING_UPLOAD → READY/REJECTED in one step: complete with an inline scan. */
  completeAndSettle(actor: Actor, id: string, digests: VerifiedDigests, result: ScanResultView, settlement: ScanSettlement, now: Date): Promise<Settled>;
  /** SCANNING → READY/REJECTED; `md5`, the scan's, becomes the checksum of an object that has none. */
  finishScan(actor: Actor, id: string, result: ScanResultView, settlement: ScanSettlement, now: Date, md5?: string): Promise<Settled>;
  /** A failed verification of a PENDING_UPLOAD object that no hold keeps: soft-deleted, the bucket delete owed. */
  failUpload(actor: Actor, id: string, reason: UploadMismatch["reason"], details: Record<string, unknown>, now: Date): Promise<boolean>;
  /** Soft-deletes when `isDue` holds for the row as it is under its lock. */
  expire(actor: Actor, id: string, now: Date, isDue: (candidate: ExpiryCandidate) => boolean): Promise<boolean>;
}

export interface MalwareScanCallOptions {
  /** Aborting closes the connection; the call rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * A malware engine the scan streams an object's bytes to (src/adapters/clamav implements it with
 * clamd). Every method rejects with a MalwareScannerError when the engine cannot be reached, does
 * not answer in time or answers something unexpected: that is never a verdict, the file waits.
 */
export interface MalwareScanner {
  /**
   * Streams `bytes` to the engine as they come (a slow engine slows the reading, nothing is
   * buffered whole) and returns its verdict. "too-large": the engine stopped reading at its limit.
   */
  scan(bytes: AsyncIterable<Uint8Array>, options?: MalwareScanCallOptions): Promise<MalwareVerdict>;
  /** The engine's version and its signature database's: a new database version means new signatures. */
  version(options?: MalwareScanCallOptions): Promise<EngineVersion>;
  /** Resolves when the engine answers; for readiness checks. */
  ping(options?: MalwareScanCallOptions): Promise<void>;
  /**
   * Asks the engine to load its signature database again. It answers at once and loads in the
   * background, still scanning with the old signatures: version() tells when the new ones are in.
   */
  reload(options?: MalwareScanCallOptions): Promise<void>;
}
