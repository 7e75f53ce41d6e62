import type { PresignedUpload } from "./port.js";
import type { UploadSession } from "./port.js";

export interface SessionSpec {
  id: string;
  tenantId: string;
  objectId: string;
  initiatedBy: string;
  upload: PresignedUpload;
  contentType: string;
  fileSize: number;
  contentMd5?: string | null;
  contentSha256?: string | null;
  policySnapshot: Record<string, unknown>;
  createdAt: Date;
}

/** One upload session: what a signed URL allowed, kept as an audit record of the object. */
export function newUploadSession(spec: SessionSpec): UploadSession {
  return {
    id: spec.id,
    tenantId: spec.tenantId,
    objectId: spec.objectId,
    initiatedBy: spec.initiatedBy,
    presignExpiresAt: spec.upload.expiresAt,
    expectedContentType: spec.contentType,
    expectedFileSize: spec.fileSize,
    contentMd5: spec.contentMd5 || null,
    contentSha256: spec.contentSha256 || null,
    policySnapshot: spec.policySnapshot,
    createdAt: spec.createdAt,
  };
}
