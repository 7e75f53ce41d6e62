import { EntitySchema } from "@mikro-orm/core";

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
