/** The S3-compatible bucket the files live in, and the bounds on its client and on uploads. */
import type { Env } from "./env.js";
import { ConfigError } from "./config-error.js";
import { MAX_PART_BYTES, MIN_PART_BYTES } from "../domain/files/part-plan.js";
import { boolean, integer, optional, required, url } from "./env-values.js";
import { parseClassMaxSizes, type ClassMaxSizes } from "./class-max-sizes.js";

export interface StorageConfig {
  endpoint: string;
  region: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  forcePathStyle: boolean;
  presignUploadExpirySeconds: number;
  presignDownloadExpirySeconds: number;
  maxFileSizeBytes: number;
  /** Class maxima that replace the class table's (STORAGE_CLASS_MAX_FILE_SIZE_BYTES); maxFileSizeBytes still bounds them. */
  classMaxFileSizeBytes: ClassMaxSizes;
  /** Objects of one tenant in PENDING_UPLOAD at once; the next initiate is refused. */
  maxPendingUploadsPerTenant: number;
  /** Where the bucket has S3 Object Lock, legal holds are mirrored onto bucket objects. */
  objectLock: boolean;
  /** The S3 client gives up instead of hanging: on connecting, on the answer, on a silent socket. */
  connectTimeoutSeconds: number;
  requestTimeoutSeconds: number;
  socketIdleTimeoutSeconds: number;
  maxSockets: number;
  maxAttempts: number;
  /** A declared size from this many bytes on is uploaded in parts (S3 multipart). */
  multipartThresholdBytes: number;
  /** The part size a multipart upload is planned with (raised when 10,000 parts would not hold the file). */
  multipartPartSizeBytes: number;
  /** How long a signed part URL lives: long enough for one part over a slow link; asked again when expired. */
  presignPartExpirySeconds: number;
}

const MIB = 1024 * 1024;

function partSize(env: Env): number {
  const bytes = integer(env, "STORAGE_MULTIPART_PART_SIZE_BYTES", 8 * MIB);
  if (bytes < MIN_PART_BYTES || bytes > MAX_PART_BYTES) {
    throw new ConfigError("STORAGE_MULTIPART_PART_SIZE_BYTES", `must be within ${MIN_PART_BYTES}..${MAX_PART_BYTES} (S3 part sizes), got ${bytes}`);
  }
  return bytes;
}

export function parseStorage(env: Env): StorageConfig {
  return {
    endpoint: url(env, "STORAGE_ENDPOINT", required(env, "STORAGE_ENDPOINT"), ["http:", "https:"]),
    region: optional(env, "STORAGE_REGION") ?? "us-east-1",
    bucket: required(env, "STORAGE_BUCKET"),
    accessKey: required(env, "STORAGE_ACCESS_KEY"),
    secretKey: required(env, "STORAGE_SECRET_KEY"),
    forcePathStyle: boolean(env, "STORAGE_FORCE_PATH_STYLE", true),
    presignUploadExpirySeconds: integer(env, "STORAGE_PRESIGN_UPLOAD_EXPIRY_SECONDS", 300),
    presignDownloadExpirySeconds: integer(env, "STORAGE_PRESIGN_DOWNLOAD_EXPIRY_SECONDS", 900),
    maxFileSizeBytes: integer(env, "STORAGE_MAX_FILE_SIZE_BYTES", 52_428_800),
    classMaxFileSizeBytes: parseClassMaxSizes(env),
    maxPendingUploadsPerTenant: integer(env, "STORAGE_MAX_PENDING_UPLOADS_PER_TENANT", 1000),
    objectLock: boolean(env, "STORAGE_OBJECT_LOCK", false),
    connectTimeoutSeconds: integer(env, "STORAGE_CONNECT_TIMEOUT_SECONDS", 5),
    requestTimeoutSeconds: integer(env, "STORAGE_REQUEST_TIMEOUT_SECONDS", 30),
    socketIdleTimeoutSeconds: integer(env, "STORAGE_SOCKET_IDLE_TIMEOUT_SECONDS", 30),
    maxSockets: integer(env, "STORAGE_MAX_SOCKETS", 50),
    maxAttempts: integer(env, "STORAGE_MAX_ATTEMPTS", 2),
    multipartThresholdBytes: integer(env, "STORAGE_MULTIPART_THRESHOLD_BYTES", 16 * MIB),
    multipartPartSizeBytes: partSize(env),
    presignPartExpirySeconds: integer(env, "STORAGE_PRESIGN_PART_EXPIRY_SECONDS", 3600),
  };
}
