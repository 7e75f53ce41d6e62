import { createHash } from "node:crypto";
import type { ActivityDeps } from "./create-activities.js";
import { finishStorageDelete } from "./create-activities.js";
import type { CompleteArgs, ObjectRef } from "../definitions.js";
import type { CompleteVerdict } from "./types.js";

const MD5_ETAG = /^[0-9a-f]{32}$/;

/** The MD5 of the stored bytes: the ETag where the backend makes it the MD5, else computed. */
async function storedMd5(deps: ActivityDeps, key: string, etag: string | undefined): Promise<string> {
  if (etag && MD5_ETAG.test(etag.toLowerCase())) return etag.toLowerCase();
  const hash = createHash("md5");
  for await (const chunk of deps.storage.stream(key)) hash.update(chunk);
  return hash.digest("hex");
}

/**
 * Verifies an upload for complete: present, of the declared size, with the declared checksum.
 * A mismatch removes the stored file and soft-deletes the object; a missing upload leaves the
 * object PENDING_UPLOAD so the client can still PUT (or refresh its URL) and complete again.
 */
export async function completeUploadActivity(deps: ActivityDeps, ref: ObjectRef, args: CompleteArgs): Promise<CompleteVerdict> {
  const actor = { tenantId: ref.tenantId, actorId: args.actorId, requestId: args.requestId };
  const row = await deps.store.findAny(ref.tenantId, ref.objectId);
  if (!row || row.deletedAt) return { kind: "not_found" };
  const current = await deps.store.findLive(ref.tenantId, ref.objectId);
  if (row.status !== "PENDING_UPLOAD") return { kind: "already", object: current! };

  const head = await deps.storage.head(row.storageKey);
  if (!head) {
    const session = await deps.store.latestSession(ref.tenantId, ref.objectId);
    const expired = !!session && session.presignExpiresAt.getTime() < deps.now().getTime();
    return expired
      ? { kind: "refused", reason: "UPLOAD_URL_EXPIRED", message: "the upload URL expired before the file was uploaded; refresh the URL or initiate again", objectDeleted: false }
      : { kind: "refused", reason: "UPLOAD_MISSING", message: "no file has been uploaded to the upload URL yet", objectDeleted: false };
  }

  const declared = Number(row.fileSize);
  const md5 = await storedMd5(deps, row.storageKey, head.etag);
  const expected = args.checksum?.toLowerCase();
  const mismatch =
    head.size !== declared
      ? { reason: "SIZE_MISMATCH", message: `stored size ${head.size} differs from the declared ${declared} bytes` }
      : expected && expected !== md5
        ? { reason: "CHECKSUM_MISMATCH", message: "checksum does not match the MD5 of the stored file; upload again" }
        : undefined;
  if (mismatch) {
    await deps.store.failUpload(actor, ref.objectId, "CHECKSUM_MISMATCH", { reason: mismatch.reason, expected, actual: md5 }, deps.now());
    await finishStorageDelete(deps, ref);
    return { kind: "refused", ...mismatch, objectDeleted: true };
  }

  const moved = await deps.store.markCompleted(actor, ref.objectId, md5, deps.now());
  const object = (await deps.store.findLive(ref.tenantId, ref.objectId))!;
  return { kind: moved ? "completed" : "already", object };
}
