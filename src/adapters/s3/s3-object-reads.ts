import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import type { Readable } from "node:stream";
import type { ObjectStorage } from "../../app/files/port.js";
import { isNotFound, isRangeNotSatisfiable, translate } from "./s3-errors.js";

type ObjectReads = Pick<ObjectStorage, "head" | "readRange" | "readPrefix" | "open" | "stream" | "list">;

/** What the service reads of stored objects: metadata, bytes and listings. */
export function s3ObjectReads(client: S3Client, Bucket: string): ObjectReads {
  const reads: ObjectReads = {
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
          const head = await reads.head(key);
          return head && { bytes: new Uint8Array(), size: head.size, etag: head.etag };
        }
        translate(error, "read prefix");
      }
    },

    async open(key) {
      try {
        const result = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        const body = result.Body as Readable;
        return { size: result.ContentLength ?? 0, etag: result.ETag?.replaceAll('"', ""), body, cancel: () => body.destroy() };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        translate(error, "open");
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

    async list(prefix, startAfter) {
      try {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, StartAfter: startAfter, MaxKeys: 1000 }));
        const objects = (page.Contents ?? []).map((o) => ({ key: o.Key!, lastModified: o.LastModified! }));
        return { objects, nextStartAfter: page.IsTruncated ? objects.at(-1)?.key : undefined };
      } catch (error) {
        translate(error, "list");
      }
    },
  };
  return reads;
}
