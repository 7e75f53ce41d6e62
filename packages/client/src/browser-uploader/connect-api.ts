import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { ObjectClass, ObjectStatus, type StoredObject } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { ErrorInfoSchema } from "@files-and-fields/client/gen/google/rpc/error_details_pb.js";
import { ApiError } from "./errors.js";
import type { ObjectStatusName, UploadTarget, UploadedObject } from "./types.js";
import type { UploadApi } from "./upload-api.js";

export interface ApiClientOptions {
  /** Where the API serves Connect, e.g. `location.origin`. */
  baseUrl: string;
  /** Called before every request, so an expiring token can be renewed by the caller. */
  token(): string | Promise<string>;
  fetch?: typeof globalThis.fetch;
}

export type FileStorageClient = Client<typeof FileStorageService>;

function bearer(token: ApiClientOptions["token"]): Interceptor {
  return (next) => async (req) => {
    req.header.set("authorization", `Bearer ${await token()}`);
    return next(req);
  };
}

/** The typed Connect client of FileStorageService (JSON over HTTP/1.1, as browsers speak it). */
export function createFileStorageClient(options: ApiClientOptions): FileStorageClient {
  const transport = createConnectTransport({ baseUrl: options.baseUrl, interceptors: [bearer(options.token)], fetch: options.fetch });
  return createClient(FileStorageService, transport);
}

/** ConnectError → ApiError: the code's name and the stable reason of its ErrorInfo detail. */
export function toApiError(error: unknown): ApiError {
  const connect = ConnectError.from(error);
  const code = Code[connect.code].replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
  const reason = connect.findDetails(ErrorInfoSchema)[0]?.reason ?? code.toUpperCase();
  return new ApiError(code, reason, connect.rawMessage, { cause: error });
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toApiError(error);
  }
}

export function toUploadedObject(stored: StoredObject | undefined): UploadedObject {
  if (!stored) throw new ApiError("internal", "INTERNAL", "the answer carries no stored object");
  return {
    id: stored.id,
    status: ObjectStatus[stored.status] as ObjectStatusName,
    objectClass: ObjectClass[stored.objectClass] ?? String(stored.objectClass),
    ownerEntityType: stored.ownerEntityType,
    ownerEntityId: stored.ownerEntityId,
    originalFilename: stored.originalFilename,
    contentType: stored.contentType,
    fileSize: Number(stored.fileSize),
    isCurrent: stored.isCurrent,
    isLegalHold: stored.isLegalHold,
    createdAt: stored.createdAt ? timestampDate(stored.createdAt) : undefined,
    scanResult: stored.scanResult && {
      passed: stored.scanResult.passed,
      checks: stored.scanResult.checks.map(({ name, passed, reason, message }) => ({ name, passed, reason, message })),
    },
  };
}

function toTarget(answer: { uploadUrl: string; uploadHeaders: Record<string, string>; uploadUrlExpiresAt?: Timestamp }): UploadTarget {
  return {
    url: answer.uploadUrl,
    headers: { ...answer.uploadHeaders },
    // Without an expiry the URL counts as expired: a refresh is cheaper than a refused PUT.
    expiresAt: answer.uploadUrlExpiresAt ? timestampDate(answer.uploadUrlExpiresAt) : new Date(0),
  };
}

/** The uploader's API calls through the generated client. */
export function createConnectUploadApi(client: FileStorageClient): UploadApi {
  return {
    initiate: (request, signal) =>
      call(async () => {
        const objectClass = ObjectClass[request.objectClass as keyof typeof ObjectClass];
        const answer = await client.initiateUpload({ ...request, objectClass, fileSize: BigInt(request.fileSize) }, { signal });
        const object = toUploadedObject(answer.storedObject);
        if (!answer.multipart) return { object, target: toTarget(answer) };
        return { object, multipart: { partSize: Number(answer.multipart.partSize), partCount: answer.multipart.partCount } };
      }),
    complete: (objectId, { waitForResult }, signal) =>
      call(async () => toUploadedObject((await client.completeUpload({ objectId, waitForResult }, { signal })).storedObject)),
    refreshUploadUrl: (objectId, signal) => call(async () => toTarget(await client.refreshUploadUrl({ objectId }, { signal }))),
    getUpload: (objectId, signal) => call(async () => toUploadedObject((await client.getUpload({ objectId }, { signal })).storedObject)),
    signParts: (objectId, parts, signal) =>
      call(async () => {
        const request = parts.map(({ partNumber, contentLength, contentSha256 }) => ({ partNumber, contentLength: BigInt(contentLength), contentSha256 }));
        const answer = await client.signUploadParts({ objectId, parts: request }, { signal });
        return answer.parts.map((part) => ({ partNumber: part.partNumber, ...toTarget(part) }));
      }),
    listParts: (objectId, signal) =>
      call(async () => (await client.listUploadedParts({ objectId }, { signal })).parts.map(({ partNumber, size }) => ({ partNumber, size: Number(size) }))),
    abort: (objectId, signal) => call(async () => void (await client.abortUpload({ objectId }, { signal }))),
  };
}
