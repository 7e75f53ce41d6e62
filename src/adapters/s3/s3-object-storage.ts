import { HeadBucketCommand, S3Client } from "@aws-sdk/client-s3";
import type { StorageConfig } from "../../config/storage.js";
import type { ObjectStorage } from "../../app/files/port.js";
import { s3ObjectLock } from "./s3-object-lock.js";
import { s3ObjectReads } from "./s3-object-reads.js";
import { s3Multipart } from "./s3-multipart.js";
import { s3Presigning } from "./s3-presigning.js";

export function createS3Client(config: StorageConfig): S3Client {
  return new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKey, secretAccessKey: config.secretKey },
    // Flexible checksums would add a CRC header the browser cannot know to presigned PUTs.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: config.maxAttempts,
    // A backend that accepts connections but never answers fails the call instead of holding it
    // (and the caller's pooled database connection) forever; the pool bounds sockets per host.
    requestHandler: {
      connectionTimeout: config.connectTimeoutSeconds * 1000,
      requestTimeout: config.requestTimeoutSeconds * 1000,
      throwOnRequestTimeout: true,
      socketTimeout: config.socketIdleTimeoutSeconds * 1000,
      httpAgent: { keepAlive: true, maxSockets: config.maxSockets },
      httpsAgent: { keepAlive: true, maxSockets: config.maxSockets },
    },
  });
}

/** The storage adapter on a client of its own; `close` releases the client's sockets. */
export function openS3ObjectStorage(config: StorageConfig): { storage: ObjectStorage; close(): Promise<void> } {
  const client = createS3Client(config);
  return { storage: createS3ObjectStorage(client, config), close: async () => client.destroy() };
}

function createS3ObjectStorage(client: S3Client, config: StorageConfig): ObjectStorage {
  const Bucket = config.bucket;
  return {
    ...s3Presigning(client, Bucket),
    ...s3ObjectReads(client, Bucket),
    ...s3ObjectLock(client, config),
    ...s3Multipart(client, Bucket),
    async ping() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
  };
}
