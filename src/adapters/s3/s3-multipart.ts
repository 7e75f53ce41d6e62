import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  S3ServiceException,
  UploadPartCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import type { MultipartStorage, PendingMultipartUpload, StoredPart } from "../../app/files/port.js";
import { translate } from "./s3-errors.js";
import { signWithBoundHeaders } from "./s3-presigning.js";

const unquote = (etag: string | undefined) => (etag ?? "").replace(/"/g, "");

/** NoSuchUpload (aborted or completed already) or a precondition on the key (it holds an object). */
function isGone(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  const status = error.$metadata.httpStatusCode;
  return error.name === "NoSuchUpload" || error.name === "PreconditionFailed" || status === 404 || status === 412;
}

/** S3 multipart uploads: the client sends the parts to signed URLs, the server starts, lists, completes and aborts. */
export function s3Multipart(client: S3Client, Bucket: string): MultipartStorage {
  async function uploadsOf(key: string): Promise<PendingMultipartUpload[]> {
    const page = await client
      .send(new ListMultipartUploadsCommand({ Bucket, Prefix: key, MaxUploads: 1000 }))
      .catch((error) => translate(error, "list multipart uploads"));
    return (page.Uploads ?? [])
      .filter((upload) => upload.Key === key && upload.UploadId)
      .map((upload) => ({ key, uploadId: upload.UploadId!, initiatedAt: upload.Initiated ?? new Date(0) }));
  }

  return {
    async startMultipart(key, contentType, call) {
      await client
        .send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType, ServerSideEncryption: "AES256" }), { abortSignal: call?.signal })
        .catch((error) => translate(error, "start multipart upload"));
    },

    async findMultipart(key) {
      const uploads = await uploadsOf(key);
      uploads.sort((a, b) => b.initiatedAt.getTime() - a.initiatedAt.getTime());
      return uploads[0]?.uploadId;
    },

    async presignPart(binding, now) {
      const headers: Record<string, string> = { "content-length": String(binding.contentLength) };
      if (binding.sha256Base64) headers["x-amz-checksum-sha256"] = binding.sha256Base64;
      const command = new UploadPartCommand({
        Bucket,
        Key: binding.key,
        UploadId: binding.uploadId,
        PartNumber: binding.partNumber,
        ContentLength: binding.contentLength,
        ChecksumSHA256: binding.sha256Base64,
      });
      // As for a single PUT: storage refuses a part of another length or whose bytes do not
      // hash to the declared SHA-256.
      return signWithBoundHeaders(client, command, headers, binding.expiresInSeconds, now, "presign part");
    },

    async listParts(key, uploadId) {
      const parts: StoredPart[] = [];
      let marker: string | undefined;
      // At most 10,000 parts, 1,000 a page.
      for (;;) {
        const page = await client
          .send(new ListPartsCommand({ Bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker, MaxParts: 1000 }))
          .catch((error) => (isGone(error) ? undefined : translate(error, "list parts")));
        if (!page) return undefined;
        for (const part of page.Parts ?? []) {
          parts.push({ partNumber: part.PartNumber ?? 0, size: part.Size ?? 0, etag: unquote(part.ETag), checksumSha256: part.ChecksumSHA256 || undefined });
        }
        if (!page.IsTruncated || !page.NextPartNumberMarker) return parts;
        marker = page.NextPartNumberMarker;
      }
    },

    async completeMultipart(key, uploadId, parts) {
      try {
        await client.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key: key,
            UploadId: uploadId,
            IfNoneMatch: "*",
            MultipartUpload: {
              Parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: `"${part.etag}"`, ChecksumSHA256: part.checksumSha256 })),
            },
          }),
        );
        return "completed";
      } catch (error) {
        if (isGone(error)) return "gone";
        return translate(error, "complete multipart upload");
      }
    },

    async abortMultipart(key) {
      const uploads = await uploadsOf(key);
      for (const upload of uploads) await this.abortMultipartUpload(key, upload.uploadId);
      return uploads.length;
    },

    async listStaleMultipart(before, after) {
      const page = await client
        .send(new ListMultipartUploadsCommand({ Bucket, KeyMarker: after?.key, UploadIdMarker: after?.uploadId, MaxUploads: 1000 }))
        .catch((error) => translate(error, "list multipart uploads"));
      const uploads = (page.Uploads ?? [])
        .filter((upload) => upload.Key && upload.UploadId && upload.Initiated && upload.Initiated < before)
        .map((upload) => ({ key: upload.Key!, uploadId: upload.UploadId!, initiatedAt: upload.Initiated! }));
      const next = page.IsTruncated && page.NextKeyMarker ? { key: page.NextKeyMarker, uploadId: page.NextUploadIdMarker ?? "" } : undefined;
      return { uploads, next };
    },

    async abortMultipartUpload(key, uploadId) {
      try {
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId }));
      } catch (error) {
        if (isGone(error)) return;
        translate(error, "abort multipart upload");
      }
    },
  };
}
