import { EntitySchema } from "@mikro-orm/core";

export class StoredObjectRow {
  id!: string;
  tenantId!: string;
  storageKey!: string;
  status!: string;
  objectClass!: string;
  ownerEntityType!: string;
  ownerEntityId!: string;
  originalFilename!: string;
  contentType!: string;
  fileSize!: string;
  checksumMd5?: string | null;
  /** SHA-256 (hex) of the stored bytes, when the client declared one and complete verified it. */
  contentSha256?: string | null;
  isCurrent = false;
  legalHoldReason?: string | null;
  legalHoldPlacedBy?: string | null;
  legalHoldPlacedAt?: Date | null;
  retentionPolicy!: string;
  retentionExpiresAt?: Date | null;
  scanResult?: Record<string, unknown> | null;
  workflowId!: string;
  deletedAt?: Date | null;
  deleteReason?: string | null;
  verificationFailure?: string | null;
  /** Set when the row is soft-deleted but the bucket object still has to go. */
  storageDeletePending = false;
  /** Sweep runs in which the storage delete failed, the last of them, and when the sweep gave up. */
  storageDeleteFailedRuns = 0;
  storageDeleteFailedRun?: string | null;
  storageDeleteAbandonedAt?: Date | null;
  uploadedAt?: Date | null;
  readyAt?: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export const StoredObjectSchema = new EntitySchema<StoredObjectRow>({
  class: StoredObjectRow,
  tableName: "stored_objects",
  properties: {
    id: { type: "uuid", primary: true },
    tenantId: { type: "string" },
    storageKey: { type: "string" },
    status: { type: "string" },
    objectClass: { type: "string" },
    ownerEntityType: { type: "string" },
    ownerEntityId: { type: "string" },
    originalFilename: { type: "string" },
    contentType: { type: "string" },
    fileSize: { type: "bigint" },
    checksumMd5: { type: "string", nullable: true },
    contentSha256: { type: "text", nullable: true },
    isCurrent: { type: "boolean" },
    legalHoldReason: { type: "text", nullable: true },
    legalHoldPlacedBy: { type: "string", nullable: true },
    legalHoldPlacedAt: { type: "Date", nullable: true },
    retentionPolicy: { type: "string" },
    retentionExpiresAt: { type: "Date", nullable: true },
    scanResult: { type: "json", nullable: true },
    workflowId: { type: "string" },
    deletedAt: { type: "Date", nullable: true },
    deleteReason: { type: "string", nullable: true },
    verificationFailure: { type: "string", nullable: true },
    storageDeletePending: { type: "boolean" },
    storageDeleteFailedRuns: { type: "integer" },
    storageDeleteFailedRun: { type: "text", nullable: true },
    storageDeleteAbandonedAt: { type: "Date", nullable: true },
    uploadedAt: { type: "Date", nullable: true },
    readyAt: { type: "Date", nullable: true },
    createdAt: { type: "Date" },
    updatedAt: { type: "Date" },
  },
});
