import type { ConnectRouter } from "@connectrpc/connect";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { ObjectClass, ObjectStatus } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { abortUpload } from "../../app/files/abort-upload.js";
import { completeUpload } from "../../app/files/complete-upload.js";
import { listUploadedParts } from "../../app/files/list-uploaded-parts.js";
import { signUploadParts } from "../../app/files/sign-upload-parts.js";
import type { FileStorageDeps } from "../../app/files/deps.js";
import { deleteUpload } from "../../app/files/delete-upload.js";
import { createDownloadUrl } from "../../app/files/download-url.js";
import { initiateUpload } from "../../app/files/initiate-upload.js";
import { setLegalHold } from "../../app/files/legal-hold.js";
import { objectAudit } from "../../app/audit/object-audit.js";
import { getUpload, listUploads } from "../../app/files/read-uploads.js";
import { refreshUploadUrl } from "../../app/files/refresh-upload-url.js";
import { restoreUpload } from "../../app/files/restore-upload.js";
import { UPDATE_ANY_OBJECT_PERMISSION } from "../../domain/files/upload-authority.js";
import { callScopeOf } from "../call-scope.js";
import { actorOf, holds } from "./actor.js";
import { toAuditEntryMessage, toUploadSessionMessage } from "./audit-entry-mapper.js";
import { enumValue, toStoredObjectMessage as message, ts } from "./stored-object-message.js";

const enumName = (e: Record<number, string>, value: number) => (value ? e[value] : undefined);

/** Translates between the contract and the file storage use cases, and nothing else. */
export function registerFileStorageService(router: ConnectRouter, deps: FileStorageDeps): void {
  router.service(FileStorageService, {
    async initiateUpload(req, ctx) {
      const result = await initiateUpload(
        deps,
        actorOf(ctx),
        {
          objectClass: ObjectClass[req.objectClass] ?? "",
          ownerEntityType: req.ownerEntityType,
          ownerEntityId: req.ownerEntityId,
          originalFilename: req.originalFilename,
          contentType: req.contentType,
          fileSize: Number(req.fileSize),
          contentMd5: req.contentMd5,
          contentSha256: req.contentSha256,
          acceptMultipart: req.acceptMultipart,
        },
        callScopeOf(ctx),
      );
      return {
        storedObject: message(result.object),
        uploadUrl: result.upload.url,
        uploadUrlExpiresAt: ts(result.upload.expiresAt),
        sessionId: result.sessionId,
        uploadHeaders: result.upload.headers,
        multipart: result.multipart && { partSize: BigInt(result.multipart.partSize), partCount: result.multipart.partCount },
      };
    },
    async signUploadParts(req, ctx) {
      const parts = req.parts.map((part) => ({
        partNumber: part.partNumber,
        contentLength: Number(part.contentLength),
        sha256Base64: part.contentSha256,
      }));
      const signed = await signUploadParts(deps, actorOf(ctx), req.objectId, parts, holds(ctx, UPDATE_ANY_OBJECT_PERMISSION));
      return {
        parts: signed.map((part) => ({
          partNumber: part.partNumber,
          uploadUrl: part.url,
          uploadUrlExpiresAt: ts(part.expiresAt),
          uploadHeaders: part.headers,
        })),
      };
    },
    async listUploadedParts(req, ctx) {
      const parts = await listUploadedParts(deps, actorOf(ctx), req.objectId, holds(ctx, UPDATE_ANY_OBJECT_PERMISSION));
      return {
        parts: parts.map((part) => ({ partNumber: part.partNumber, size: BigInt(part.size), etag: part.etag, checksumSha256: part.checksumSha256 ?? "" })),
      };
    },
    async abortUpload(req, ctx) {
      await abortUpload(deps, actorOf(ctx), req.objectId, holds(ctx, UPDATE_ANY_OBJECT_PERMISSION));
      return {};
    },
    async completeUpload(req, ctx) {
      const object = await completeUpload(deps, actorOf(ctx), {
        objectId: req.objectId,
        checksum: req.checksum,
        waitForResult: req.waitForResult,
        mayUpdateAnyObject: holds(ctx, UPDATE_ANY_OBJECT_PERMISSION),
      });
      return { storedObject: message(object) };
    },
    async refreshUploadUrl(req, ctx) {
      const upload = await refreshUploadUrl(deps, actorOf(ctx), req.objectId, holds(ctx, UPDATE_ANY_OBJECT_PERMISSION));
      return { uploadUrl: upload.url, uploadUrlExpiresAt: ts(upload.expiresAt), uploadHeaders: upload.headers };
    },
    async getUpload(req, ctx) {
      return { storedObject: message(await getUpload(deps, actorOf(ctx), req.objectId)) };
    },
    async listUploads(req, ctx) {
      const page = await listUploads(
        deps,
        actorOf(ctx),
        {
          ownerEntityType: req.ownerEntityType || undefined,
          ownerEntityId: req.ownerEntityId || undefined,
          isCurrent: req.isCurrent,
          objectClass: enumName(ObjectClass, req.objectClass),
          status: enumName(ObjectStatus, req.status),
        },
        req.pageSize,
        req.pageToken,
      );
      return { storedObjects: page.items.map(message), nextPageToken: page.nextPageToken };
    },
    async deleteUpload(req, ctx) {
      await deleteUpload(deps, actorOf(ctx), req.objectId);
      return {};
    },
    async createDownloadUrl(req, ctx) {
      const disposition = req.disposition === "inline" ? "inline" : "attachment";
      const result = await createDownloadUrl(deps, actorOf(ctx), req.objectId, disposition);
      return {
        downloadUrl: result.url,
        expiresAt: ts(result.expiresAt),
        contentType: result.contentType,
        originalFilename: result.originalFilename,
        fileSize: BigInt(result.fileSize),
      };
    },
    async placeLegalHold(req, ctx) {
      return { storedObject: message(await setLegalHold(deps, actorOf(ctx), req.objectId, { reason: req.reason })) };
    },
    async releaseLegalHold(req, ctx) {
      return { storedObject: message(await setLegalHold(deps, actorOf(ctx), req.objectId, null)) };
    },
    async restoreUpload(req, ctx) {
      return { storedObject: message(await restoreUpload(deps, actorOf(ctx), req.objectId)) };
    },
    async listAuditEntries(req, ctx) {
      const page = await objectAudit(deps.trail, actorOf(ctx), req.objectId.toLowerCase(), req.pageSize, req.pageToken);
      return {
        auditEntries: page.items.map(toAuditEntryMessage),
        nextPageToken: page.nextPageToken,
        uploadSessions: page.sessions.map(toUploadSessionMessage),
      };
    },
  });
}
