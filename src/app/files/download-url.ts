import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import { canonicalContentType } from "../../domain/files/checks/content-types.js";
import { downloadFilename } from "../../domain/files/filename.js";
import { findOrFail, type FileStorageDeps } from "./deps.js";

export interface DownloadUrl {
  url: string;
  expiresAt: Date;
  contentType: string;
  originalFilename: string;
  fileSize: number;
}

/** READY objects only; audited as DOWNLOAD_URL_ISSUED. */
export async function createDownloadUrl(
  deps: FileStorageDeps,
  actor: Actor,
  objectId: string,
  disposition: "attachment" | "inline",
): Promise<DownloadUrl> {
  const object = await findOrFail(deps, actor, objectId);
  if (object.status === "QUARANTINED") {
    throw new AppError("OBJECT_QUARANTINED", `upload ${objectId} is QUARANTINED: a re-scan found malware in it`);
  }
  if (object.status !== "READY") {
    throw new AppError("OBJECT_NOT_READY", `upload ${objectId} is ${object.status}; downloads need READY`);
  }
  const now = deps.now();
  const signed = await deps.storage.presignDownload(
    {
      key: object.storageKey,
      // Saved under the extension of the type the scan verified, whatever the name ended in.
      filename: downloadFilename(object.originalFilename, canonicalContentType(object.contentType)),
      disposition,
      contentType: object.contentType,
      expiresInSeconds: deps.storageConfig.presignDownloadExpirySeconds,
    },
    now,
  );
  await deps.store.audit({ objectId, action: "DOWNLOAD_URL_ISSUED", actor, details: { disposition }, at: now });
  return { ...signed, contentType: object.contentType, originalFilename: object.originalFilename, fileSize: object.fileSize };
}
