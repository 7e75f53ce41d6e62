/** The S3-compatible bucket the files live in, and the bounds on its client and on uploads. */
import type { Env } from "./env.js";
import { boolean, integer, optional, required, url } from "./env-values.js";

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
    maxPendingUploadsPerTenant: integer(env, "STORAGE_MAX_PENDING_UPLOADS_PER_TENANT", 1000),
    objectLock: boolean(env, "STORAGE_OBJECT_LOCK", false),
    connectTimeoutSeconds: integer(env, "STORAGE_CONNECT_TIMEOUT_SECONDS", 5),
    requestTimeoutSeconds: integer(env, "STORAGE_REQUEST_TIMEOUT_SECONDS", 30),
    socketIdleTimeoutSeconds: integer(env, "STORAGE_SOCKET_IDLE_TIMEOUT_SECONDS", 30),
    maxSockets: integer(env, "STORAGE_MAX_SOCKETS", 50),
    maxAttempts: integer(env, "STORAGE_MAX_ATTEMPTS", 2),
  };
}
