import { EntitySchema } from "@mikro-orm/core";
import type { UploadSession } from "../../../app/files/port.js";

/** Outlives its object as an audit record of what was allowed at initiation. */
export class UploadSessionRow {
  id!: string;
  tenantId!: string;
  objectId!: string;
  initiatedBy!: string;
  presignExpiresAt!: Date;
  expectedContentType!: string;
  expectedFileSize!: string;
  contentMd5?: string | null;
  contentSha256?: string | null;
  policySnapshot!: Record<string, unknown>;
  completedAt?: Date | null;
  createdAt!: Date;
}

export const UploadSessionSchema = new EntitySchema<UploadSessionRow>({
  class: UploadSessionRow,
  tableName: "upload_sessions",
  properties: {
    id: { type: "uuid", primary: true },
    tenantId: { type: "string" },
    objectId: { type: "uuid" },
    initiatedBy: { type: "string" },
    presignExpiresAt: { type: "Date" },
    expectedContentType: { type: "string" },
    expectedFileSize: { type: "bigint" },
    contentMd5: { type: "string", nullable: true },
    contentSha256: { type: "string", nullable: true },
    policySnapshot: { type: "json" },
    completedAt: { type: "Date", nullable: true },
    createdAt: { type: "Date" },
  },
});

export function toUploadSessionRow(session: UploadSession): UploadSessionRow {
  return Object.assign(new UploadSessionRow(), { ...session, expectedFileSize: String(session.expectedFileSize) });
}

export function toUploadSession(row: UploadSessionRow): UploadSession {
  return {
    id: row.id,
    tenantId: row.tenantId,
    objectId: row.objectId,
    initiatedBy: row.initiatedBy,
    presignExpiresAt: row.presignExpiresAt,
    expectedContentType: row.expectedContentType,
    expectedFileSize: Number(row.expectedFileSize),
    contentMd5: row.contentMd5 ?? null,
    contentSha256: row.contentSha256 ?? null,
    policySnapshot: row.policySnapshot,
    createdAt: row.createdAt,
  };
}
