import type { VerifiedDigests } from "../../domain/files/upload-verification.js";

/**
 * UPLOAD_COMPLETED's details (and so the `upload.completed` webhook's): the MD5 of the stored
 * bytes, where complete computed it (a multipart upload with nothing declared gets it from the
 * scan), and, when the client declared one at initiate, the SHA-256 complete verified.
 */
export function uploadCompletedDetails(digests: VerifiedDigests): Record<string, unknown> {
  return { ...(digests.md5 ? { checksum: digests.md5 } : {}), ...(digests.sha256 ? { contentSha256: digests.sha256 } : {}) };
}
