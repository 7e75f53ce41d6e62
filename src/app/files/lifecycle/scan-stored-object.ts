import { scanFile } from "../../../domain/files/checks/scanner.js";
import { classRules } from "../../../domain/files/object-classes.js";
import type { ScanResultView } from "../../../domain/files/stored-object.js";
import type { ObjectRef } from "../../../domain/files/object-ref.js";
import type { LifecyclePorts } from "./lifecycle-ports.js";
import { objectByteSource } from "./object-bytes.js";
import { scanCheckpoint, type ScanAttempt } from "./scan-checkpoint.js";

/**
 * Runs the checks on the real bytes of an object that is SCANNING. Content problems are a failed
 * check, never an error; an error here is a storage fault, which Temporal retries, or the abort
 * reason of a superseded attempt, which stops at its next checkpoint. Answers undefined when the
 * object is no longer SCANNING (the workflow then re-reads its state).
 */
export async function scanStoredObject(
  ports: LifecyclePorts,
  ref: ObjectRef,
  attempt: ScanAttempt,
): Promise<ScanResultView | undefined> {
  const record = await ports.objects.findRecord(ref.tenantId, ref.objectId);
  if (!record || record.deleted || record.status !== "SCANNING") return undefined;
  let bytesRead = 0;
  const outcome = await scanFile(record.contentType, objectByteSource(ports.storage, record.storageKey, record.fileSize), {
    onProgress: (total) => {
      bytesRead = total;
      attempt.heartbeat(total);
    },
    checkpoint: scanCheckpoint(attempt, () => bytesRead),
    svgLimits: ports.svgLimits,
    contentPolicy: classRules(record.objectClass).contentPolicy,
    officeLimits: ports.officeLimits,
    pdfLimits: ports.pdfLimits,
  });
  return { ...outcome, finishedAt: ports.now().toISOString() };
}
