/**
 * Complete's check of the stored bytes against the declaration: size, then the MD5 the client
 * may name, then the whole file's SHA-256 declared at initiate (where storage did not check it). Pure: the storage facts are read by the caller.
 */
export interface StoredBytes {
  size: number;
  md5: string;
  /** Hex SHA-256, computed where storage did not check it (a multipart upload's whole file). */
  sha256?: string;
}

/** What complete verified and keeps on the object: the MD5 of the stored bytes and, when declared, their SHA-256 (hex). */
export interface VerifiedDigests {
  md5: string;
  sha256?: string;
}

/**
 * The digests an upload that passed `findUploadMismatch` keeps. The declared SHA-256 was checked
 * either by storage (bound on a single PUT's URL) or against the stored bytes (multipart): either
 * way it is now the bytes' SHA-256, the same on every retry of complete.
 */
export function verifiedDigests(stored: Pick<StoredBytes, "md5">, declaredSha256: string | undefined): VerifiedDigests {
  return declaredSha256 ? { md5: stored.md5, sha256: declaredSha256.toLowerCase() } : { md5: stored.md5 };
}

export type UploadMismatch = { reason: "SIZE_MISMATCH" | "CHECKSUM_MISMATCH"; message: string };

export function findUploadMismatch(declaredSize: number, expectedMd5: string | undefined, stored: StoredBytes, expectedSha256?: string): UploadMismatch | undefined {
  if (stored.size !== declaredSize) {
    return { reason: "SIZE_MISMATCH", message: `stored size ${stored.size} differs from the declared ${declaredSize} bytes` };
  }
  if (expectedMd5 && expectedMd5.toLowerCase() !== stored.md5) {
    return { reason: "CHECKSUM_MISMATCH", message: "checksum does not match the MD5 of the stored file; upload again" };
  }
  if (expectedSha256 && stored.sha256 !== undefined && expectedSha256.toLowerCase() !== stored.sha256) {
    return { reason: "CHECKSUM_MISMATCH", message: "the SHA-256 declared at initiate does not match the stored file; upload again" };
  }
  return undefined;
}

export type MissingUpload = { reason: "UPLOAD_URL_EXPIRED" | "UPLOAD_MISSING"; message: string };

/** Nothing stored at the key yet: the client may still PUT, or needs a fresh URL first. */
export function missingUpload(latestUrlExpiresAt: Date | undefined, now: Date): MissingUpload {
  return latestUrlExpiresAt && latestUrlExpiresAt.getTime() < now.getTime()
    ? { reason: "UPLOAD_URL_EXPIRED", message: "the upload URL expired before the file was uploaded; refresh the URL or initiate again" }
    : { reason: "UPLOAD_MISSING", message: "no file has been uploaded to the upload URL yet" };
}
