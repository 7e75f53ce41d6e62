import type { Actor } from "../../../domain/actor.js";
import { readsBoundedBytes } from "../../../domain/files/checks/scanner.js";
import { settleScan } from "../../../domain/files/scan-settlement.js";
import type { ObjectRecord } from "../../../domain/files/stored-object.js";
import { removalBlocked } from "../../../domain/files/legal-hold.js";
import { findUploadMismatch, md5ReadAtComplete, missingUpload, type UploadMismatch, verifiedDigests } from "../../../domain/files/upload-verification.js";
import type { ObjectRef } from "../../../domain/files/object-ref.js";
import type { LifecyclePorts } from "./deps.js";
import { etagIsMd5, objectByteSource, storedDigests } from "./object-bytes.js";
import { openHead, prefixHead, type ObjectHead } from "./object-head.js";
import { loadLifecycleState, outcomeOf, type StepOutcome } from "./step-outcome.js";
import { announceRetentionChanges } from "./announce-retention-changes.js";
import { finishStorageDelete } from "./storage-delete.js";
import { isEngineFailure, scanObjectBytes } from "./scan-object-bytes.js";

/** A read of this many bytes holds a small image or PDF whole, and every header a check reads. */
export const INLINE_PREFIX_BYTES = 256 * 1024;

/**
 * How long complete waits for the malware engine's verdict on a small file. Complete answers a
 * waiting caller within its step's timeout; an engine slower than this leaves the file SCANNING
 * for the scan activity, which has the time and retries.
 */
const INLINE_ENGINE_TIMEOUT_MS = 10_000;

export interface CompleteRequest {
  checksum?: string;
  actorId: string;
  requestId?: string;
}

export interface CompleteOutcome extends StepOutcome {
  /** Why complete was refused; the state says what the refusal left. */
  refusal?: { reason: string; message: string };
}

/**
 * Complete: verify the stored bytes against the declaration and move the object on. Images and
 * PDFs up to `inlineScanMaxBytes` are scanned here too (content checks and malware engine) and
 * end READY or REJECTED at once, unless the engine gives no verdict; the rest go to SCANNING for
 * the scan activity. Whatever happened before (this same call, retried
 * after its answer was lost), the answer is the persisted state after the step.
 */
export async function verifyAndComplete(ports: LifecyclePorts, ref: ObjectRef, request: CompleteRequest): Promise<CompleteOutcome> {
  const record = await ports.objects.findRecord(ref.tenantId, ref.objectId);
  if (!record || record.deleted) return { ...outcomeOf(record), refusal: refusalOfGone(record) };
  if (record.status !== "PENDING_UPLOAD") return outcomeOf(record);

  const inline = readsBoundedBytes(record.contentType) && record.fileSize <= ports.inlineScanMaxBytes;
  // A file complete scans is read once, from this GET: its head verified here, the rest streamed
  // to the scan. Any other needs only what a one-byte read tells (its size and ETag).
  const head = inline ? await openHead(ports.storage, record.storageKey, INLINE_PREFIX_BYTES) : await prefixHead(ports.storage, record.storageKey);
  if (!head) {
    const session = await ports.objects.latestSession(ref.tenantId, ref.objectId);
    return { ...outcomeOf(record), refusal: missingUpload(session?.presignExpiresAt, ports.now()) };
  }
  try {
    return await verifyHead(ports, ref, record, request, head, inline);
  } finally {
    head.release();
  }
}

async function verifyHead(ports: LifecyclePorts, ref: ObjectRef, record: ObjectRecord, request: CompleteRequest, head: ObjectHead, inline: boolean): Promise<CompleteOutcome> {
  const actor: Actor = { tenantId: ref.tenantId, actorId: request.actorId, requestId: request.requestId };
  const whole = head.bytes.length >= head.size ? head.bytes : undefined;
  // A single PUT's signed URL bound the declared SHA-256 and storage checked it; a multipart
  // upload's parts were checked one by one, so the whole file is checked here, in the one read
  // that computes its MD5 (its ETag is not one).
  const declaredSha256 = (await ports.objects.latestSession(ref.tenantId, ref.objectId))?.contentSha256 || undefined;
  const checkHere = !!declaredSha256 && !etagIsMd5(head.etag);
  const readsMd5 = md5ReadAtComplete({ etagIsMd5: etagIsMd5(head.etag), declaredMd5: !!request.checksum, sha256ToCheck: checkHere, inlineScan: inline });
  // Not read here: the scan's single read computes the MD5 and finishScan keeps it.
  const digests = readsMd5 ? await storedDigests(ports.storage, record.storageKey, head.etag, whole, checkHere) : { md5: undefined };
  const md5 = digests.md5;
  const mismatch = findUploadMismatch(record.fileSize, request.checksum, { size: head.size, ...digests }, checkHere ? declaredSha256 : undefined);
  if (mismatch) return refuseMismatch(ports, actor, record, mismatch, md5, request.checksum);
  const verified = verifiedDigests(digests, declaredSha256);

  // A hold placed while nothing was stored yet reaches the bucket object now that it exists.
  if (record.legalHold) await ports.storage.setLegalHold(record.storageKey, true);
  const now = ports.now();
  if (!inline) {
    await ports.objects.markCompleted(actor, ref.objectId, verified, now);
    return loadLifecycleState(ports, ref);
  }
  const scan = await scanObjectBytes(ports, record, objectByteSource(ports.storage, record.storageKey, head.size, head), {
    engineTimeoutMs: INLINE_ENGINE_TIMEOUT_MS,
  });
  if (isEngineFailure(scan)) {
    // No verdict now: the file waits in SCANNING for the scan activity, which retries the engine.
    ports.malware?.unavailable(ref, scan.error);
    await ports.objects.markCompleted(actor, ref.objectId, verified, now);
    return loadLifecycleState(ports, ref);
  }
  const finishedAt = ports.now();
  const settlement = settleScan(record.objectClass, scan.passed, finishedAt, ports.retention);
  const settled = await ports.objects.completeAndSettle(actor, ref.objectId, verified, { ...scan, finishedAt: finishedAt.toISOString() }, settlement, now);
  await announceRetentionChanges(ports, ref.tenantId, settled.superseded, "superseded by a newer upload");
  return settled.record ? outcomeOf(settled.record) : loadLifecycleState(ports, ref);
}

/** Gone: removed by a failed verification (this very call, run again), or not found. */
function refusalOfGone(record: ObjectRecord | undefined): CompleteOutcome["refusal"] {
  const failure = record?.deleteReason === "CHECKSUM_MISMATCH" ? record.verificationFailure : undefined;
  if (failure === "SIZE_MISMATCH") return { reason: failure, message: "the stored size differs from the declared size; the file was removed, upload again" };
  if (failure === "CHECKSUM_MISMATCH") return { reason: failure, message: "checksum does not match the MD5 of the stored file; upload again" };
  return { reason: "OBJECT_NOT_FOUND", message: "upload not found" };
}

/** The stored bytes are not what was declared: remove them, unless a legal hold keeps them (domain/files/legal-hold.ts). */
async function refuseMismatch(
  ports: LifecyclePorts,
  actor: Actor,
  record: ObjectRecord,
  mismatch: UploadMismatch,
  md5: string | undefined,
  expected: string | undefined,
): Promise<CompleteOutcome> {
  const ref = { tenantId: record.tenantId, objectId: record.id };
  const details = { reason: mismatch.reason, expected: expected?.toLowerCase(), actual: md5 };
  const now = ports.now();
  const held = removalBlocked({ legalHold: !!record.legalHold });
  if (!held && (await ports.objects.failUpload(actor, record.id, mismatch.reason, details, now))) {
    await finishStorageDelete(ports, ref, actor);
  } else if (held) {
    await ports.objects.auditOnce({ objectId: record.id, action: "UPLOAD_FAILED", actor, result: "FAILURE", details: { ...details, keptUnderLegalHold: true }, at: now });
  }
  return { ...(await loadLifecycleState(ports, ref)), refusal: mismatch };
}
