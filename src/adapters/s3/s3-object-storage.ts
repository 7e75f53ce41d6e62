import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { StorageConfig } from "../../config/storage.js";
import { AppError } from "../../domain/errors.js";
import type { ObjectStorage, PresignedUpload, UploadBinding } from "../../app/files/port.js";
import { contentDisposition } from "./content-disposition.js";

function hexToBase64(hex: string): string {
  return Buffer.from(hex, "hex").toString("base64");
}

function isRangeNotSatisfiable(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 416 || error.name === "InvalidRange");
}

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === "NotFound" || error.name === "NoSuchKey");
}

/** Driver errors become domain errors, keeping the original as `cause`. */
function translate(error: unknown, action: string): never {
  if (error instanceof AppError) throw error;
  const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
  const reason = status === undefined || status >= 500 ? "DEPENDENCY_UNAVAILABLE" : "INTERNAL";
  throw new AppError(reason, `object storage unavailable (${action}): ${(error as Error).message}`, { cause: error });
}

async function versionsOf(client: S3Client, Bucket: string, key: string): Promise<(string | undefined)[]> {
  const ids: string[] = [];
  let KeyMarker: string | undefined;
  let VersionIdMarker: string | undefined;
  do {
    const page = await client.send(new ListObjectVersionsCommand({ Bucket, Prefix: key, KeyMarker, VersionIdMarker }));
    for (const v of [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])]) if (v.Key === key && v.VersionId) ids.push(v.VersionId);
    KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
    VersionIdMarker = page.IsTruncated ? page.NextVersionIdMarker : undefined;
  } while (KeyMarker);
  return ids.length > 0 ? ids : [undefined];
}

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
  const storage: ObjectStorage = {
    async presignUpload(binding: UploadBinding, now: Date): Promise<PresignedUpload> {
      const headers: Record<string, string> = {
        "content-type": binding.contentType,
        "content-length": String(binding.contentLength),
        "x-amz-server-side-encryption": "AES256",
        "if-none-match": "*",
      };
      if (binding.md5Hex) headers["content-md5"] = hexToBase64(binding.md5Hex);
      if (binding.sha256Hex) headers["x-amz-checksum-sha256"] = hexToBase64(binding.sha256Hex);
      const command = new PutObjectCommand({
        Bucket,
        Key: binding.key,
        ContentType: binding.contentType,
        ContentLength: binding.contentLength,
        ServerSideEncryption: "AES256",
        IfNoneMatch: "*",
        ContentMD5: headers["content-md5"],
        ChecksumSHA256: headers["x-amz-checksum-sha256"],
      });
      // Every bound header stays a signed header (not a query parameter), so the storage backend
      // refuses a PUT whose size, type, encryption or checksum differ from the declaration.
      const url = await getSignedUrl(client, command, {
        expiresIn: binding.expiresInSeconds,
        signingDate: now,
        signableHeaders: new Set(Object.keys(headers)),
        unhoistableHeaders: new Set(Object.keys(headers).filter((h) => h.startsWith("x-amz-"))),
      }).catch((error) => translate(error, "presign upload"));
      return { url, headers, expiresAt: new Date(now.getTime() + binding.expiresInSeconds * 1000) };
    },

    async presignDownload(binding, now) {
      const command = new GetObjectCommand({
        Bucket,
        Key: binding.key,
        ResponseContentDisposition: contentDisposition(binding.disposition, binding.filename),
        ResponseContentType: binding.contentType,
      });
      const url = await getSignedUrl(client, command, { expiresIn: binding.expiresInSeconds, signingDate: now }).catch(
        (error) => translate(error, "presign download"),
      );
      return { url, expiresAt: new Date(now.getTime() + binding.expiresInSeconds * 1000) };
    },

    async head(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return {
          size: head.ContentLength ?? 0,
          contentType: head.ContentType,
          etag: head.ETag?.replaceAll('"', ""),
          lastModified: head.LastModified,
        };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        translate(error, "head");
      }
    },

    async readRange(key, offset, length) {
      if (length <= 0) return new Uint8Array();
      try {
        const result = await client.send(
          new GetObjectCommand({ Bucket, Key: key, Range: `bytes=${offset}-${offset + length - 1}` }),
        );
        return await result.Body!.transformToByteArray();
      } catch (error) {
        translate(error, "read range");
      }
    },

    async readPrefix(key, length) {
      try {
        const result = await client.send(new GetObjectCommand({ Bucket, Key: key, Range: `bytes=0-${Math.max(1, length) - 1}` }));
        const bytes = await result.Body!.transformToByteArray();
        const total = /\/(\d+)$/.exec(result.ContentRange ?? "")?.[1];
        return { bytes, size: total === undefined ? bytes.length : Number(total), etag: result.ETag?.replaceAll('"', "") };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        // An empty object has no byte 0 to range over: S3 answers 416.
        if (isRangeNotSatisfiable(error)) {
          const head = await storage.head(key);
          return head && { bytes: new Uint8Array(), size: head.size, etag: head.etag };
        }
        translate(error, "read prefix");
      }
    },

    async *stream(key) {
      let body: AsyncIterable<Uint8Array>;
      try {
        const result = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        body = result.Body as AsyncIterable<Uint8Array>;
      } catch (error) {
        translate(error, "stream");
      }
      yield* body;
    },

    async delete(key) {
      try {
        // A bucket with Object Lock is versioned: a plain delete would only add a delete marker
        // and keep the bytes, so a hard delete removes every version of the key.
        const versions = config.objectLock ? await versionsOf(client, Bucket, key) : [undefined];
        for (const VersionId of versions) await client.send(new DeleteObjectCommand({ Bucket, Key: key, VersionId }));
      } catch (error) {
        if (!isNotFound(error)) translate(error, "delete");
      }
    },

    async setLegalHold(key, on) {
      if (!config.objectLock) return;
      try {
        await client.send(new PutObjectLegalHoldCommand({ Bucket, Key: key, LegalHold: { Status: on ? "ON" : "OFF" } }));
      } catch (error) {
        if (!isNotFound(error)) translate(error, "legal hold");
      }
    },

    async list(prefix, startAfter) {
      try {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, StartAfter: startAfter, MaxKeys: 1000 }));
        const objects = (page.Contents ?? []).map((o) => ({ key: o.Key!, lastModified: o.LastModified! }));
        return { objects, nextStartAfter: page.IsTruncated ? objects.at(-1)?.key : undefined };
      } catch (error) {
        translate(error, "list");
      }
    },

    async ping() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
  };
  return storage;
}
