import type { MalwareScanRecord } from "./malware/malware-check.js";
import type { ObjectClassName, RetentionPolicyName } from "./object-classes.js";

export type ObjectStatusName = "PENDING_UPLOAD" | "SCANNING" | "READY" | "REJECTED" | "QUARANTINED";
export type DeleteReason = "USER_DELETED" | "EXPIRED" | "CHECKSUM_MISMATCH";

export type AuditActionName =
  | "UPLOAD_INITIATED"
  | "UPLOAD_COMPLETED"
  | "UPLOAD_FAILED"
  | "SCAN_PASSED"
  | "SCAN_FAILED"
  | "DOWNLOAD_URL_ISSUED"
  | "OBJECT_DELETED"
  | "OBJECT_EXPIRED"
  | "HOLD_PLACED"
  | "HOLD_RELEASED"
  | "UPLOAD_URL_REFRESHED"
  | "OBJECT_RESTORED"
  | "OBJECT_SUPERSEDED"
  | "AUDIT_CHECKPOINT_SIGNED"
  | "OBJECT_QUARANTINED";

export interface ScanCheckResult {
  name: string;
  passed: boolean;
  reason?: string;
  message?: string;
}

export interface ScanResultView {
  passed: boolean;
  checks: ScanCheckResult[];
  finishedAt: string;
  bytesRead: number;
  /** What the malware engine said and which engine and database said it; absent where none ran. */
  malware?: MalwareScanRecord;
}

/** A stored object as the service shows it; plain data so it crosses Temporal as JSON. */
export interface StoredObjectView {
  id: string;
  tenantId: string;
  storageKey: string;
  status: ObjectStatusName;
  objectClass: ObjectClassName;
  ownerEntityType: string;
  ownerEntityId: string;
  originalFilename: string;
  contentType: string;
  fileSize: number;
  isCurrent: boolean;
  legalHold?: { reason: string; placedBy: string; placedAt: string };
  retentionPolicy: RetentionPolicyName;
  retentionExpiresAt?: string;
  scanResult?: ScanResultView;
  checksum?: string;
  /** SHA-256 (hex) of the stored bytes: the one declared at initiate, once complete verified it. */
  contentSha256?: string;
  createdAt: string;
  updatedAt: string;
  uploadedAt?: string;
}

/** A row as the lifecycle sees it: soft-deleted ones too, with the storage delete still owed. */
export interface ObjectRecord extends StoredObjectView {
  deleted: boolean;
  deleteReason?: DeleteReason;
  /** Why complete refused and removed the upload: SIZE_MISMATCH or CHECKSUM_MISMATCH. */
  verificationFailure?: string;
  storageDeletePending: boolean;
}

/** Workflow id of an object's lifecycle: derived, so any process can find it. */
export function lifecycleWorkflowId(tenantId: string, objectId: string): string {
  // UUIDs compare case-insensitively in PostgreSQL; the workflow id must too, or an upper-case
  // id would start a second workflow for the same object.
  return `object-${tenantId}-${objectId.toLowerCase()}`;
}
