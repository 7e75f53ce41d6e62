/** The storage port: what the service needs of an S3-compatible bucket. */
export interface PresignedUpload {
  url: string;
  expiresAt: Date;
  /** Headers (name to value) the PUT must carry exactly: they are part of the signature. */
  headers: Record<string, string>;
}

export interface UploadBinding {
  key: string;
  contentType: string;
  contentLength: number;
  /** Hex MD5 the bytes must have; bound as Content-MD5. */
  md5Hex?: string;
  /** Hex SHA-256 the bytes must have; bound as x-amz-checksum-sha256. */
  sha256Hex?: string;
  expiresInSeconds: number;
}

export interface StoredObjectHead {
  size: number;
  contentType?: string;
  /** The ETag without quotes; the MD5 of the bytes for single-part unencrypted-by-KMS uploads. */
  etag?: string;
  lastModified?: Date;
}

export interface DownloadBinding {
  key: string;
  filename: string;
  disposition: "attachment" | "inline";
  contentType: string;
  expiresInSeconds: number;
}

export interface BucketObject {
  key: string;
  lastModified: Date;
}

/** The first bytes of a stored object with what the same read tells of the whole object. */
export interface StoredObjectPrefix {
  bytes: Uint8Array;
  /** Size of the whole object. */
  size: number;
  /** The ETag without quotes (see StoredObjectHead). */
  etag?: string;
}

export interface ObjectStorage {
  presignUpload(binding: UploadBinding, now: Date): Promise<PresignedUpload>;
  presignDownload(binding: DownloadBinding, now: Date): Promise<{ url: string; expiresAt: Date }>;
  head(key: string): Promise<StoredObjectHead | undefined>;
  readRange(key: string, offset: number, length: number): Promise<Uint8Array>;
  /**
   * One ranged read of the first `length` bytes that also answers the object's size and ETag
   * (from Content-Range), so complete needs no separate HEAD; undefined when nothing is stored.
   */
  readPrefix(key: string, length: number): Promise<StoredObjectPrefix | undefined>;
  stream(key: string): AsyncIterable<Uint8Array>;
  /** Idempotent: deleting a missing key succeeds. */
  delete(key: string): Promise<void>;
  setLegalHold(key: string, on: boolean): Promise<void>;
  list(prefix: string, startAfter?: string): Promise<{ objects: BucketObject[]; nextStartAfter?: string }>;
  ping(): Promise<void>;
}
