import { create } from "@bufbuild/protobuf";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { ObjectClass, ObjectStatus, StoredObjectSchema } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { ApiError } from "../../../packages/client/src/browser-uploader/errors.js";
import { uppyAwsS3Options, uppyOperation, type UppyPresignableRequest } from "../../../packages/client/src/uppy/aws-s3-options.js";
import { AppError } from "../../../src/domain/errors.js";
import { planParts } from "../../../src/domain/files/part-plan.js";
import { toConnectError } from "../../../src/rpc/errors.js";

const MIB = 1024 * 1024;
const OBJECT_ID = "0190f0c0-0000-7000-8000-000000000001";
const TARGET = { objectClass: "GENERAL_DOCUMENT", ownerEntityType: "Customer", ownerEntityId: "c-1" };

/** The XML a `data:` answer holds. */
const xmlOf = (url: string) => {
  expect(url.startsWith("data:application/xml,")).toBe(true);
  return decodeURIComponent(url.slice("data:application/xml,".length));
};

/** The adapter over a fake FileStorageService that records every call; `partSize` is what initiate plans. */
function adapter(partSize = 8 * MIB) {
  const calls: { method: string; request: Record<string, unknown> }[] = [];
  const record = (method: string, request: object) => calls.push({ method, request: { ...request } });
  const transport = createRouterTransport(({ service }) =>
    service(FileStorageService, {
      initiateUpload(request) {
        record("initiateUpload", request);
        const multipart = request.acceptMultipart && request.fileSize >= 16n * BigInt(MIB) ? { partSize: BigInt(partSize), partCount: 3 } : undefined;
        return {
          storedObject: create(StoredObjectSchema, { id: OBJECT_ID, status: ObjectStatus.PENDING_UPLOAD }),
          uploadUrl: multipart ? "" : "https://storage.test/put",
          uploadHeaders: multipart ? ({} as Record<string, string>) : { "content-type": "text/csv", "content-length": String(request.fileSize) },
          multipart,
        };
      },
      signUploadParts(request) {
        record("signUploadParts", request);
        return { parts: request.parts.map((part) => ({ partNumber: part.partNumber, uploadUrl: `https://storage.test/part/${part.partNumber}`, uploadHeaders: { "content-length": String(part.contentLength) } })) };
      },
      listUploadedParts(request) {
        record("listUploadedParts", request);
        return { parts: [{ partNumber: 1, size: BigInt(8 * MIB), etag: "e1" }, { partNumber: 2, size: BigInt(8 * MIB), etag: "e2" }] };
      },
      completeUpload(request) {
        record("completeUpload", request);
        return { storedObject: create(StoredObjectSchema, { id: OBJECT_ID, status: ObjectStatus.SCANNING }) };
      },
      abortUpload(request) {
        record("abortUpload", request);
        if (request.objectId !== OBJECT_ID) throw toConnectError(new AppError("OBJECT_NOT_FOUND", "no such upload"));
        return {};
      },
    }),
  );
  return { options: uppyAwsS3Options(createClient(FileStorageService, transport), TARGET), calls };
}

describe("uppyOperation", () => {
  it("tells Uppy's seven S3 requests apart by method and upload id", () => {
    const cases: [UppyPresignableRequest, string][] = [
      [{ method: "PUT", key: "k" }, "putObject"],
      [{ method: "POST", key: "k" }, "createMultipartUpload"],
      [{ method: "DELETE", key: "k" }, "deleteObject"],
      [{ method: "PUT", key: "k", uploadId: "u", partNumber: 1 }, "uploadPart"],
      [{ method: "GET", key: "k", uploadId: "u" }, "listParts"],
      [{ method: "POST", key: "k", uploadId: "u" }, "completeMultipartUpload"],
      [{ method: "DELETE", key: "k", uploadId: "u" }, "abortMultipartUpload"],
    ];
    for (const [request, operation] of cases) expect(uppyOperation(request), JSON.stringify(request)).toBe(operation);
  });
});

describe("uppyAwsS3Options", () => {
  it("uses multipart from the server's default threshold on, with the server's part size", () => {
    const { options } = adapter();
    expect(options.shouldUseMultipart({ size: 16 * MIB - 1 })).toBe(false);
    expect(options.shouldUseMultipart({ size: 16 * MIB })).toBe(true);
    expect(options.getChunkSize({ size: 20 * MIB })).toBe(8 * MIB);
    // 100 GB: 8 MiB parts would be more than 10,000; both sides raise them alike.
    expect(options.getChunkSize({ size: 100e9 })).toBe(planParts(100e9, 16 * MIB, 8 * MIB)!.partSize);
  });

  it("signs a single PUT with InitiateUpload's URL: the object id as key, without the headers the browser sets", async () => {
    const { options, calls } = adapter();
    const key = options.generateObjectKey({ name: "small.csv", size: 1000, type: "text/csv" });
    const signed = await options.signRequest({ method: "PUT", key, contentType: "text/csv" });
    expect(signed).toEqual({ url: "https://storage.test/put", key: OBJECT_ID, headers: { "content-type": "text/csv" } });
    expect(calls[0]!.request).toMatchObject({
      objectClass: ObjectClass.GENERAL_DOCUMENT,
      ownerEntityType: "Customer",
      ownerEntityId: "c-1",
      originalFilename: "small.csv",
      contentType: "text/csv",
      fileSize: 1000n,
      acceptMultipart: false,
    });
  });

  it("runs a multipart upload: initiate, one signed part per chunk with its exact length, complete on the server", async () => {
    const { options, calls } = adapter();
    const size = 20_000_000;
    const key = options.generateObjectKey({ name: "big.csv", size, type: "text/csv" });
    const created = await options.signRequest({ method: "POST", key });
    expect(created.key).toBe(OBJECT_ID);
    expect(xmlOf(created.url)).toBe(`<InitiateMultipartUploadResult><UploadId>${OBJECT_ID}</UploadId></InitiateMultipartUploadResult>`);
    expect(calls[0]!.request).toMatchObject({ acceptMultipart: true, fileSize: BigInt(size) });

    const parts = [];
    for (const partNumber of [1, 2, 3]) parts.push(await options.signRequest({ method: "PUT", key: OBJECT_ID, uploadId: OBJECT_ID, partNumber }));
    expect(parts.map((part) => part.url)).toEqual([1, 2, 3].map((n) => `https://storage.test/part/${n}`));
    expect(parts.every((part) => Object.keys(part.headers ?? {}).length === 0)).toBe(true);
    const signedLengths = calls.filter((call) => call.method === "signUploadParts").map((call) => (call.request.parts as { contentLength: bigint }[])[0]!.contentLength);
    expect(signedLengths).toEqual([BigInt(8 * MIB), BigInt(8 * MIB), BigInt(size - 16 * MIB)]);
    await expect(options.signRequest({ method: "PUT", key: OBJECT_ID, uploadId: OBJECT_ID, partNumber: 4 })).rejects.toMatchObject({ reason: "VALIDATION_FAILED" });

    const completed = await options.signRequest({ method: "POST", key: OBJECT_ID, uploadId: OBJECT_ID });
    expect(xmlOf(completed.url)).toContain(`<Key>${OBJECT_ID}</Key>`);
    expect(calls.at(-1)).toMatchObject({ method: "completeUpload", request: { objectId: OBJECT_ID } });
  });

  it("refuses, and aborts, a multipart upload the server planned with another part size than Uppy cuts", async () => {
    const { options, calls } = adapter(16 * MIB);
    const key = options.generateObjectKey({ name: "big.csv", size: 20 * MIB, type: "text/csv" });
    const error = await options.signRequest({ method: "POST", key }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ reason: "MULTIPART_PLAN_MISMATCH" });
    expect(calls.at(-1)).toMatchObject({ method: "abortUpload", request: { objectId: OBJECT_ID } });
  });

  it("escapes what it puts in the XML it answers with", async () => {
    const { options } = adapter();
    const odd = "a<b>&\"c'";
    const completed = await options.signRequest({ method: "POST", key: odd, uploadId: odd });
    expect(xmlOf(completed.url)).toContain("<Key>a&lt;b&gt;&amp;&quot;c&apos;</Key>");
  });

  it("answers ListParts with the parts storage holds, for a resumed upload", async () => {
    const { options } = adapter();
    const listed = await options.signRequest({ method: "GET", key: OBJECT_ID, uploadId: OBJECT_ID });
    expect(xmlOf(listed.url)).toBe("<ListPartsResult><Part><PartNumber>1</PartNumber><ETag>e1</ETag></Part><Part><PartNumber>2</PartNumber><ETag>e2</ETag></Part></ListPartsResult>");
  });

  it("aborts with AbortUpload, and reports the API's refusal as ApiError with its reason", async () => {
    const { options, calls } = adapter();
    expect(xmlOf((await options.signRequest({ method: "DELETE", key: OBJECT_ID, uploadId: OBJECT_ID })).url)).toBe("");
    expect(calls.at(-1)).toMatchObject({ method: "abortUpload", request: { objectId: OBJECT_ID } });
    const other = "0190f0c0-0000-7000-8000-000000000002";
    await expect(options.signRequest({ method: "DELETE", key: other, uploadId: other })).rejects.toMatchObject({ code: "not_found", reason: "OBJECT_NOT_FOUND" });
  });

  it("refuses a request for a key no file of it was given, and Uppy's DeleteObject", async () => {
    const { options, calls } = adapter();
    await expect(options.signRequest({ method: "PUT", key: "unknown" })).rejects.toMatchObject({ reason: "UPLOAD_UNKNOWN" });
    await expect(options.signRequest({ method: "DELETE", key: "k" })).rejects.toMatchObject({ reason: "UNIMPLEMENTED" });
    expect(calls).toEqual([]);
  });
});
