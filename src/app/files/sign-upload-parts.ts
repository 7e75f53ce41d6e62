import type { Actor } from "../../domain/actor.js";
import { checkPartRequests, type PartRequest } from "../../domain/files/part-plan.js";
import type { FileStorageDeps } from "./deps.js";
import { multipartUploadId, pendingMultipart } from "./multipart-upload.js";
import type { PresignedUpload } from "./port.js";

export interface PartToSign extends PartRequest {
  /** Base64 SHA-256 of the part's bytes; storage refuses a part that does not match. */
  sha256Base64?: string;
}

export interface SignedPart extends PresignedUpload {
  partNumber: number;
}

/**
 * UploadPart URLs for a batch of parts of a pending multipart upload. A URL may be asked for
 * again (it expired, or the part failed): signing writes nothing, it only costs a storage lookup.
 */
export async function signUploadParts(
  deps: FileStorageDeps,
  actor: Actor,
  objectId: string,
  parts: readonly PartToSign[],
  mayUpdateAnyObject: boolean,
): Promise<SignedPart[]> {
  checkPartRequests(parts);
  const { object } = await pendingMultipart(deps, actor, objectId, mayUpdateAnyObject);
  const uploadId = await multipartUploadId(deps, object);
  const now = deps.now();
  const signed = await Promise.all(
    parts.map(async (part) => ({
      partNumber: part.partNumber,
      ...(await deps.storage.presignPart(
        {
          key: object.storageKey,
          uploadId,
          partNumber: part.partNumber,
          contentLength: part.contentLength,
          sha256Base64: part.sha256Base64 || undefined,
          expiresInSeconds: deps.storageConfig.presignPartExpirySeconds,
        },
        now,
      )),
    })),
  );
  deps.meters?.partsSigned(signed.length);
  return signed;
}
