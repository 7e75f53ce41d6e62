import { GetObjectCommand, PutObjectCommand, type S3Client, type UploadPartCommand } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { ObjectStorage, PresignedUpload, UploadBinding } from "../../app/files/port.js";
import { contentDisposition } from "./content-disposition.js";
import { translate } from "./s3-errors.js";

function hexToBase64(hex: string): string {
  return Buffer.from(hex, "hex").toString("base64");
}

/**
 * A PUT URL whose bound headers stay signed headers (not query parameters), so that the storage
 * backend refuses a PUT whose size, type, encryption or checksum differ from the declaration.
 */
export async function signWithBoundHeaders(
  client: S3Client,
  command: PutObjectCommand | UploadPartCommand,
  headers: Record<string, string>,
  expiresInSeconds: number,
  now: Date,
  action: string,
): Promise<PresignedUpload> {
  // The SDK's signature takes one command type at a time.
  const url = await getSignedUrl(client, command as PutObjectCommand, {
    expiresIn: expiresInSeconds,
    signingDate: now,
    signableHeaders: new Set(Object.keys(headers)),
    unhoistableHeaders: new Set(Object.keys(headers).filter((h) => h.startsWith("x-amz-"))),
  }).catch((error) => translate(error, action));
  return { url, headers, expiresAt: new Date(now.getTime() + expiresInSeconds * 1000) };
}

/** URLs the client uses to move bytes directly to and from the bucket. */
export function s3Presigning(client: S3Client, Bucket: string): Pick<ObjectStorage, "presignUpload" | "presignDownload"> {
  return {
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
      return signWithBoundHeaders(client, command, headers, binding.expiresInSeconds, now, "presign upload");
    },

    async presignDownload(binding, now) {
      const command = new GetObjectCommand({
        Bucket,
        Key: binding.key,
        ResponseContentDisposition: contentDisposition(binding.disposition, binding.filename),
        ResponseContentType: binding.contentType,
      });
      // The SDK's signature takes one command type at a time.
  const url = await getSignedUrl(client, command as PutObjectCommand, { expiresIn: binding.expiresInSeconds, signingDate: now }).catch(
        (error) => translate(error, "presign download"),
      );
      return { url, expiresAt: new Date(now.getTime() + binding.expiresInSeconds * 1000) };
    },
  };
}
