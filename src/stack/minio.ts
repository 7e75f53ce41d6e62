/**
 * MinIO as the S3 store: one local drive, a bucket with Object Lock and default SSE-S3
 * (AES256) encryption, as the app expects from a production bucket.
 */
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectLockConfigurationCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutBucketEncryptionCommand,
  PutBucketLifecycleConfigurationCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startupError, type Log } from "./log-file.js";
import { spawnLogged } from "./process.js";
import { waitUntilReady } from "./readiness.js";
import { minioIsReady } from "./minio-readiness.js";

export interface MinioOptions {
  binary: string;
  dataDir: string;
  port: number;
  consolePort: number;
  logDir: string;
  log: Log;
  bucket?: string;
  startTimeoutMs?: number;
}

export interface RunningMinio {
  endpoint: string;
  consoleUrl: string;
  bucket: string;
  region: string;
  accessKey: string;
  secretKey: string;
  /** False only when a bucket that already existed was created without Object Lock. */
  objectLock: boolean;
  stop(): Promise<void>;
}

// Development credentials; MinIO wants a password of at least 8 characters.
const ACCESS_KEY = "minioadmin";
const SECRET_KEY = "minioadmin";
const REGION = "us-east-1";
const KMS_KEY_NAME = "stack-dev-key";

export async function startMinio(options: MinioOptions): Promise<RunningMinio> {
  const bucket = options.bucket ?? "files";
  const endpoint = `http://127.0.0.1:${options.port}`;
  const consoleUrl = `http://127.0.0.1:${options.consolePort}`;
  mkdirSync(options.dataDir, { recursive: true });

  const child = spawnLogged({
    name: "minio",
    command: options.binary,
    args: [
      "server",
      options.dataDir,
      "--address",
      `127.0.0.1:${options.port}`,
      "--console-address",
      `127.0.0.1:${options.consolePort}`,
    ],
    env: {
      ...process.env,
      MINIO_ROOT_USER: ACCESS_KEY,
      MINIO_ROOT_PASSWORD: SECRET_KEY,
      // SSE-S3 needs a KMS; MinIO's built-in single key is enough for development.
      MINIO_KMS_SECRET_KEY: kmsSecretKey(options.dataDir),
      MINIO_UPDATE: "off",
    },
    logDir: options.logDir,
    log: options.log,
  });

  await waitUntilReady({
    what: "MinIO",
    child,
    timeoutMs: options.startTimeoutMs ?? 60_000,
    check: async () => {
      const response = await fetch(`${endpoint}/minio/health/ready`, { signal: AbortSignal.timeout(2_000) });
      return minioIsReady(response);
    },
  });

  const s3 = new S3Client({
    endpoint,
    region: REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
  });
  try {
    const objectLock = await prepareBucket(s3, bucket, options.log);
    return { endpoint, consoleUrl, bucket, region: REGION, accessKey: ACCESS_KEY, secretKey: SECRET_KEY, objectLock, stop: child.stop };
  } catch (error) {
    await child.stop();
    const message = error instanceof Error ? error.message : String(error);
    throw await startupError("MinIO", `preparing bucket ${bucket} failed: ${message}`, child.logFile);
  } finally {
    s3.destroy();
  }
}

/**
 * MinIO encrypts objects and its own config with this key, so it must stay the same for a data
 * directory: generated on first start and kept next to the data (a dot file at the drive root,
 * which MinIO ignores; bucket names cannot start with a dot).
 */
function kmsSecretKey(dataDir: string): string {
  const file = path.join(dataDir, ".stack-kms-secret-key");
  if (!existsSync(file)) {
    writeFileSync(file, `${KMS_KEY_NAME}:${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}

/** Creates the bucket if missing, sets default encryption and proves it; returns whether Object Lock is on. */
async function prepareBucket(s3: S3Client, bucket: string, log: Log): Promise<boolean> {
  if (await bucketExists(s3, bucket)) {
    log(`MinIO: bucket ${bucket} exists`);
  } else {
    // Object Lock can only be chosen when a bucket is created.
    await s3.send(new CreateBucketCommand({ Bucket: bucket, ObjectLockEnabledForBucket: true }));
    log(`MinIO: created bucket ${bucket} with Object Lock`);
  }
  const objectLock = await objectLockEnabled(s3, bucket);
  if (!objectLock) log(`MinIO: bucket ${bucket} has no Object Lock (it was created without it); STORAGE_OBJECT_LOCK=false`);

  await s3.send(
    new PutBucketEncryptionCommand({
      Bucket: bucket,
      ServerSideEncryptionConfiguration: { Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }] },
    }),
  );
  // Prove that default encryption really applies (it needs the KMS key above), then remove the
  // probe, by version so no delete marker or old version piles up in the locked bucket.
  const key = ".stack/encryption-probe";
  const put = await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: "probe" }));
  const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, VersionId: put.VersionId }));
  if (head.ServerSideEncryption !== "AES256") {
    throw new Error(`objects are not encrypted by default (ServerSideEncryption=${head.ServerSideEncryption})`);
  }
  await abortIncompleteUploadsRule(s3, bucket, log);
  return objectLock;
}

/**
 * The last resort behind the object workflows and the sweep (docs/multipart-uploads.md): storage
 * drops multipart uploads left incomplete for a day. A backend that refuses the rule (MinIO does
 * not implement it: it expires stale uploads itself, after `api stale_uploads_expiry`, 24 h by
 * default) is logged and left as it is.
 */
async function abortIncompleteUploadsRule(s3: S3Client, bucket: string, log: Log): Promise<void> {
  try {
    await s3.send(
      new PutBucketLifecycleConfigurationCommand({
        Bucket: bucket,
        LifecycleConfiguration: {
          Rules: [{ ID: "abort-incomplete-multipart-uploads", Status: "Enabled", Filter: { Prefix: "" }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }],
        },
      }),
    );
    log(`MinIO: bucket ${bucket} aborts multipart uploads left incomplete for a day`);
  } catch (error) {
    log(`MinIO: no AbortIncompleteMultipartUpload rule on ${bucket} (${(error as Error).message}); MinIO expires stale uploads itself`);
  }
}

async function bucketExists(s3: S3Client, bucket: string): Promise<boolean> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

async function objectLockEnabled(s3: S3Client, bucket: string): Promise<boolean> {
  try {
    const result = await s3.send(new GetObjectLockConfigurationCommand({ Bucket: bucket }));
    return result.ObjectLockConfiguration?.ObjectLockEnabled === "Enabled";
  } catch (error) {
    if ((error as { name?: string }).name === "ObjectLockConfigurationNotFoundError") return false;
    throw error;
  }
}
