import { DeleteObjectCommand, ListObjectVersionsCommand, PutObjectLegalHoldCommand, type S3Client } from "@aws-sdk/client-s3";
import type { ObjectStorage } from "../../app/files/port.js";
import type { StorageConfig } from "../../config/storage.js";
import { isNotFound, translate } from "./s3-errors.js";

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

/** The writes that differ when the bucket has Object Lock: removal and legal holds. */
export function s3ObjectLock(client: S3Client, config: StorageConfig): Pick<ObjectStorage, "delete" | "setLegalHold"> {
  const Bucket = config.bucket;
  return {
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
  };
}
