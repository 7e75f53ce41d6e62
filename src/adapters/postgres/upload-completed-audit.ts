import type { VerifiedDigests } from "../../domain/files/upload-verification.js";

/**
 * UPLOAD_COMPLETED's details (and so the `upload.completed` webhook's): the MD5 of the stored
 * bytes and, when the client declared one at initiate, the SHA-256 complete verified.
 */
export function uploadCompletedDetails(digests: VerifiedDigests): Record<string, unknown> {
  return digests.sha256 ? { checksum: digests.md5, contentSha256: digests.sha256 } : { checksum: digests.md5 };
}
