import type { Actor } from "../../domain/actor.js";
import { ensureBeforeDeadline, mapDeadline, withinDeadline, type CallScope } from "../../domain/call-scope.js";
import type { PresignedUpload } from "./port.js";
import { retentionDeadline } from "../../domain/files/retention.js";
import { storageKeyFor } from "../../domain/files/storage-key.js";
import type { StoredObjectView } from "../../domain/files/stored-object.js";
import { lifecycleWorkflowId } from "../../domain/files/stored-object.js";
import { normalizeContentType } from "../../domain/files/checks/content-types.js";
import { normalizeFilename } from "../../domain/files/filename.js";
import { checkUploadDeclaration, type UploadDeclaration } from "../../domain/files/upload-request.js";
import { pendingUploadLimitReached } from "../../domain/files/pending-upload-quota.js";
import type { FileStorageDeps } from "./deps.js";
import type { NewStoredObject } from "./port.js";
import { planParts, type PartPlan } from "../../domain/files/part-plan.js";

/**
 * A multipart upload is started in storage at initiate; its parts are signed on request
 * (sign-upload-parts.ts) until the pending deadline. An upload whose rows then fail is aborted
 * (were that to fail, the sweep aborts it once stale). So does one the call's deadline cut off
 * after storage took it.
 */
async function startMultipart(deps: FileStorageDeps, key: string, contentType: string, pendingDeadline: Date, call: CallScope | undefined): Promise<PresignedUpload> {
  await withinDeadline(call, () => deps.storage.startMultipart(key, contentType, call));
  return { url: "", headers: {}, expiresAt: pendingDeadline };
}
import { newUploadSession } from "./upload-session.js";

export interface InitiateInput extends UploadDeclaration {
  contentMd5?: string;
  contentSha256?: string;
  /** The client sends parts when asked to (a multipart upload from the threshold on). */
  acceptMultipart?: boolean;
}

export interface InitiateResult {
  object: StoredObjectView;
  /** For a multipart upload: no URL (parts are signed on request), expiring at the pending deadline. */
  upload: PresignedUpload;
  /** Set when the bytes go in parts. */
  multipart?: PartPlan;
  sessionId: string;
}

/**
 * The object's workflow starts (it holds the abandoned-upload deadline), then the object row,
 * its upload session and UPLOAD_INITIATED commit together. A call whose deadline passed stops
 * before either (before the rows, the workflow it started is withdrawn like after a failed insert);
 * the deadline also cuts off each of them while it runs (the ports take the call), and what they
 * then throw answers DEADLINE_EXCEEDED (mapDeadline).
 */
export async function initiateUpload(deps: FileStorageDeps, actor: Actor, input: InitiateInput, call?: CallScope): Promise<InitiateResult> {
  const rules = checkUploadDeclaration(input, deps.storageConfig.maxFileSizeBytes, deps.storageConfig.classMaxFileSizeBytes);
  const now = deps.now();
  const objectId = deps.newId();
  const contentType = normalizeContentType(input.contentType);
  const storageKey = storageKeyFor(actor.tenantId, input.ownerEntityType, input.ownerEntityId, objectId);
  const pendingDeadline = retentionDeadline("TEMP_UPLOAD_24H", now, deps.retention)!;
  const multipart = input.acceptMultipart
    ? planParts(input.fileSize, deps.storageConfig.multipartThresholdBytes, deps.storageConfig.multipartPartSizeBytes)
    : undefined;
  const upload = multipart
    ? await startMultipart(deps, storageKey, contentType, pendingDeadline, call)
    : await deps.storage.presignUpload(
        {
          key: storageKey,
          contentType,
          contentLength: input.fileSize,
          md5Hex: input.contentMd5 || undefined,
          sha256Hex: input.contentSha256 || undefined,
          expiresInSeconds: deps.storageConfig.presignUploadExpirySeconds,
        },
        now,
      );
  const object: NewStoredObject = {
    id: objectId,
    tenantId: actor.tenantId,
    storageKey,
    objectClass: rules.name,
    ownerEntityType: input.ownerEntityType,
    ownerEntityId: input.ownerEntityId,
    originalFilename: normalizeFilename(input.originalFilename),
    contentType,
    fileSize: input.fileSize,
    pendingDeadline,
    workflowId: lifecycleWorkflowId(actor.tenantId, objectId),
    createdAt: now,
  };
  const session = newUploadSession({
    id: deps.newId(),
    tenantId: actor.tenantId,
    objectId,
    initiatedBy: actor.actorId,
    upload,
    contentType,
    fileSize: input.fileSize,
    contentMd5: input.contentMd5,
    contentSha256: input.contentSha256,
    policySnapshot: { ...rules, maxFileSizeBytes: Math.min(rules.maxSizeBytes, deps.storageConfig.maxFileSizeBytes), ...(multipart && { multipart }) },
    createdAt: now,
  });
  const audit = { objectId, action: "UPLOAD_INITIATED" as const, actor, details: { sessionId: session.id }, at: now };
  // The workflow first, outside any transaction: Temporal down means nothing is written. A start
  // that failed may still have started the workflow (the server took it, the answer was lost; the
  // caller retries with a new id), and rows that failed to commit leave it with nothing to do: in
  // both cases it is withdrawn (were that to fail too, it finds no row at its pending deadline and
  // ends, having written nothing).
  const ref = { tenantId: actor.tenantId, objectId };
  const maxPending = deps.storageConfig.maxPendingUploadsPerTenant;
  let view: StoredObjectView | undefined;
  let startAttempted = false;
  try {
    ensureBeforeDeadline(call);
    startAttempted = true;
    await deps.lifecycle.start(ref, { objectClass: rules.name, ownerEntityType: input.ownerEntityType, pendingDeadline, uploadMode: multipart ? "MULTIPART" : "SINGLE_PUT" }, call);
    ensureBeforeDeadline(call);
    view = await deps.store.createInitiated(object, session, audit, maxPending, call);
  } catch (error) {
    // Not bounded by the call: its signal is aborted by now, and these are what the call owes
    // storage and Temporal once it gives up. The multipart upload too when the deadline passed
    // before the workflow was started.
    if (startAttempted) await deps.lifecycle.withdraw(ref, "initiate could not store the object").catch(() => undefined);
    if (multipart) await deps.storage.abortMultipart(storageKey).catch(() => undefined);
    throw mapDeadline(call, error);
  }
  if (view) return { object: view, upload, multipart, sessionId: session.id };
  // Counted in the rows' statement, so the common case costs no round trip; the rare refusal
  // removes the workflow it started (were that to fail, it finds no row at its deadline and ends).
  await deps.lifecycle.discard(ref).catch(() => undefined);
  if (multipart) await deps.storage.abortMultipart(storageKey).catch(() => undefined);
  throw pendingUploadLimitReached(maxPending);
}
