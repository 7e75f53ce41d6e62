import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { ObjectStorage, PresignedUpload, UploadBinding } from "../../app/files/port.js";
import { contentDisposition } from "./content-disposition.js";
import { translate } from "./s3-errors.js";

function hexToBase64(hex: string): string {
  return Buffer.from(hex, "hex").toString("base64");
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
  };
}
