/**
 * Complete's check of the stored bytes against the declaration: size, then the MD5 the client
 * may name, then the whole file's SHA-256 declared at initiate (where storage did not check it). Pure: the storage facts are read by the caller.
 */
export interface StoredBytes {
  size: number;
  /** Absent where complete left the MD5 to the scan's read (`md5ReadAtComplete`). */
  md5?: string;
  /** Hex SHA-256, computed where storage did not check it (a multipart upload's whole file). */
  sha256?: string;
}

/**
 * What complete verified and keeps on the object: the MD5 of the stored bytes (absent where the
 * scan computes it, `md5ReadAtComplete`) and, when declared, their SHA-256 (hex).
 */
export interface VerifiedDigests {
  md5?: string;
  sha256?: string;
}

/**
 * The digests an upload that passed `findUploadMismatch` keeps. The declared SHA-256 was checked
 * either by storage (bound on a single PUT's URL) or against the stored bytes (multipart): either
 * way it is now the bytes' SHA-256, the same on every retry of complete.
 */
export function verifiedDigests(stored: Pick<StoredBytes, "md5">, declaredSha256: string | undefined): VerifiedDigests {
  return { ...(stored.md5 ? { md5: stored.md5 } : {}), ...(declaredSha256 ? { sha256: declaredSha256.toLowerCase() } : {}) };
}

/** What complete knows when it decides whether to read every stored byte. */
export interface CompleteReadFacts {
  /** Storage's ETag is the MD5 (a single PUT): nothing to read for it. */
  etagIsMd5: boolean;
  /** The client named an MD5 at complete: it is checked now. */
  declaredMd5: boolean;
  /** A whole-file SHA-256 was declared at initiate that storage did not check (multipart): checked now. */
  sha256ToCheck: boolean;
  /** Complete scans the file itself (small image or PDF) and so reads its bytes anyway. */
  inlineScan: boolean;
}

/**
 * Whether complete computes the MD5 of the stored bytes. Only where something must be checked
 * now, or the bytes are read anyway: otherwise (a multipart upload, nothing declared) reading
 * every byte here would read the file twice, since the scan reads it all again; the scan's read
 * computes the MD5 instead and the object gets it with its verdict.
 */
export function md5ReadAtComplete(facts: CompleteReadFacts): boolean {
  return facts.etagIsMd5 || facts.declaredMd5 || facts.sha256ToCheck || facts.inlineScan;
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
