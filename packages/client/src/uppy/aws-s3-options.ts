/**
 * Options for Uppy 6's AwsS3 plugin (`@uppy/aws-s3`) that upload through this API:
 * `uppy.use(AwsS3, uppyAwsS3Options(client, { objectClass, ownerEntityType, ownerEntityId }))`.
 * Below the multipart threshold a file is one PUT to InitiateUpload's URL; from it on, the parts
 * Uppy cuts are signed one by one with SignUploadParts, each binding its exact length. Uppy's key
 * and upload id are both the object id. After upload-success call CompleteUpload with the key
 * (docs/uppy.md): a single PUT is completed then; a multipart upload was already, and complete is
 * idempotent. This module imports nothing from Uppy: the types below are the part of Uppy's
 * options it fills, and the client package keeps no dependency on Uppy.
 */
import { ObjectClass } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { partLength, planParts } from "../../../../src/domain/files/part-plan.js";
import { toApiError, type FileStorageClient } from "../browser-uploader/connect-api.js";
import { ApiError } from "../browser-uploader/errors.js";
import { abortedAnswer, completedAnswer, createdAnswer, listedPartsAnswer } from "./s3-answers.js";

/** The requests Uppy's signRequest receives (Uppy's PresignableRequest, by shape). */
export interface UppyPresignableRequest {
  method: "PUT" | "POST" | "GET" | "DELETE";
  key: string;
  uploadId?: string;
  partNumber?: number;
  contentType?: string;
}

/** What signRequest answers (part of Uppy's PresignedResponse). */
export interface UppyPresignedResponse {
  url: string;
  /** The object id: Uppy uses it as the key from then on. */
  key?: string;
  headers?: Record<string, string>;
}

/** The fields of an Uppy file the adapter reads. */
export interface UppyFileFields {
  name?: string;
  size: number | null;
  type?: string;
}

/** Where the files go: InitiateUpload's owner and class, the same for every file or chosen per file. */
export interface UppyUploadTarget {
  /** An ObjectClass name, e.g. "GENERAL_DOCUMENT". */
  objectClass: string;
  ownerEntityType: string;
  ownerEntityId: string;
}

export interface UppyAwsS3Config {
  /** The server's STORAGE_MULTIPART_THRESHOLD_BYTES (16 MiB unless configured otherwise). */
  multipartThresholdBytes?: number;
  /** The server's STORAGE_MULTIPART_PART_SIZE_BYTES (8 MiB unless configured otherwise). */
  partSizeBytes?: number;
}

/** The AwsS3 plugin options this adapter fills (pass them to `uppy.use(AwsS3, …)`). */
export interface UppyAwsS3Options {
  shouldUseMultipart(file: UppyFileFields): boolean;
  getChunkSize(file: { size: number }): number;
  generateObjectKey(file: UppyFileFields): string;
  signRequest(request: UppyPresignableRequest): Promise<UppyPresignedResponse>;
}

const MIB = 1024 * 1024;
/** Headers the browser derives itself (Content-Length from the body) and refuses from a page. */
const BROWSER_CONTROLLED = new Set(["content-length", "host", "connection"]);

interface PendingFile {
  name: string;
  size: number;
  type: string;
  target: UppyUploadTarget;
}

/** Which S3 operation Uppy asks for: its method, and whether it names an upload and a part. */
export type UppyOperation = "putObject" | "createMultipartUpload" | "uploadPart" | "listParts" | "completeMultipartUpload" | "abortMultipartUpload" | "deleteObject";

export function uppyOperation(request: UppyPresignableRequest): UppyOperation {
  if (request.uploadId === undefined) return request.method === "PUT" ? "putObject" : request.method === "POST" ? "createMultipartUpload" : "deleteObject";
  if (request.method === "PUT") return "uploadPart";
  return request.method === "GET" ? "listParts" : request.method === "POST" ? "completeMultipartUpload" : "abortMultipartUpload";
}

function sendable(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !BROWSER_CONTROLLED.has(name.toLowerCase())));
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toApiError(error);
  }
}

export function uppyAwsS3Options(
  client: FileStorageClient,
  target: UppyUploadTarget | ((file: UppyFileFields) => UppyUploadTarget),
  config: UppyAwsS3Config = {},
): UppyAwsS3Options {
  const threshold = config.multipartThresholdBytes ?? 16 * MIB;
  const partSizeBytes = config.partSizeBytes ?? 8 * MIB;
  /** By Uppy's requested key (before InitiateUpload), then by object id. */
  const files = new Map<string, PendingFile>();
  const targetOf = typeof target === "function" ? target : () => target;

  const pending = (key: string): PendingFile => {
    const file = files.get(key);
    if (!file) throw new ApiError("failed_precondition", "UPLOAD_UNKNOWN", `no file of this page is uploading as ${key}`);
    return file;
  };
  /** The server's plan is the same pure rule with the same settings: the chunks Uppy cuts are its parts. */
  const partSizeOf = (size: number) => planParts(size, 0, partSizeBytes)!.partSize;

  async function initiate(key: string, acceptMultipart: boolean) {
    const file = pending(key);
    const answer = await call(() =>
      client.initiateUpload({
        objectClass: ObjectClass[file.target.objectClass as keyof typeof ObjectClass],
        ownerEntityType: file.target.ownerEntityType,
        ownerEntityId: file.target.ownerEntityId,
        originalFilename: file.name,
        contentType: file.type,
        fileSize: BigInt(file.size),
        acceptMultipart,
      }),
    );
    const objectId = answer.storedObject?.id ?? "";
    files.set(objectId, file);
    return { answer, objectId };
  }

  async function sign(request: UppyPresignableRequest): Promise<UppyPresignedResponse> {
    switch (uppyOperation(request)) {
      case "putObject": {
        const { answer, objectId } = await initiate(request.key, false);
        return { url: answer.uploadUrl, key: objectId, headers: sendable(answer.uploadHeaders) };
      }
      case "createMultipartUpload": {
        const { answer, objectId } = await initiate(request.key, true);
        const planned = answer.multipart ? Number(answer.multipart.partSize) : undefined;
        const cut = partSizeOf(pending(objectId).size);
        // A server configured otherwise than `config` plans other parts: say so rather than send parts it did not plan.
        if (planned !== cut) {
          await client.abortUpload({ objectId }).catch(() => undefined);
          throw new ApiError("failed_precondition", "MULTIPART_PLAN_MISMATCH", `the server plans ${planned ?? "no"} parts of bytes where Uppy cuts ${cut}: set multipartThresholdBytes and partSizeBytes as the server's`);
        }
        return { url: createdAnswer(objectId), key: objectId };
      }
      case "uploadPart": {
        const objectId = request.uploadId!;
        const { size } = pending(objectId);
        const contentLength = partLength(size, partSizeOf(size), request.partNumber ?? 0);
        if (contentLength === undefined) throw new ApiError("invalid_argument", "VALIDATION_FAILED", `part ${request.partNumber} is beyond the file's ${size} bytes`);
        const { parts } = await call(() => client.signUploadParts({ objectId, parts: [{ partNumber: request.partNumber, contentLength: BigInt(contentLength) }] }));
        return { url: parts[0]!.uploadUrl, headers: sendable(parts[0]!.uploadHeaders) };
      }
      case "listParts": {
        const { parts } = await call(() => client.listUploadedParts({ objectId: request.uploadId! }));
        return { url: listedPartsAnswer(parts) };
      }
      case "completeMultipartUpload": {
        const objectId = request.uploadId!;
        await call(() => client.completeUpload({ objectId }));
        return { url: completedAnswer(objectId, objectId) };
      }
      case "abortMultipartUpload": {
        await call(() => client.abortUpload({ objectId: request.uploadId! }));
        files.delete(request.uploadId!);
        return { url: abortedAnswer() };
      }
      case "deleteObject":
        throw new ApiError("unimplemented", "UNIMPLEMENTED", "Uppy's DeleteObject is not signed: delete an upload with DeleteUpload");
    }
  }

  return {
    shouldUseMultipart: (file) => (file.size ?? 0) >= threshold,
    getChunkSize: ({ size }) => partSizeOf(size),
    generateObjectKey(file) {
      const key = crypto.randomUUID();
      files.set(key, { name: file.name ?? key, size: file.size ?? 0, type: file.type || "application/octet-stream", target: targetOf(file) });
      return key;
    },
    signRequest: sign,
  };
}
