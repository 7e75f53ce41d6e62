import type { ScanResultView } from "../../../domain/files/stored-object.js";
import type { ObjectRef } from "../../../domain/files/object-ref.js";
import type { LifecyclePorts } from "./deps.js";
import { objectByteSource } from "./object-bytes.js";
import type { ScanAttempt } from "./scan-checkpoint.js";
import { isEngineFailure, scanObjectBytes } from "./scan-object-bytes.js";

/**
 * Runs the checks and the malware engine on the real bytes of an object that is SCANNING. Content
 * problems and detections are a failed check, never an error. An error here is a storage fault or
 * the engine's failure, which Temporal retries with backoff while the object stays SCANNING (fail
 * closed: no verdict, no READY), or the abort reason of a superseded attempt, which stops at its
 * next checkpoint. Answers undefined when the object is no longer SCANNING (the workflow then
 * re-reads its state).
 */
export async function scanStoredObject(
  ports: LifecyclePorts,
  ref: ObjectRef,
  attempt: ScanAttempt,
): Promise<ScanResultView | undefined> {
  const record = await ports.objects.findRecord(ref.tenantId, ref.objectId);
  if (!record || record.deleted || record.status !== "SCANNING") return undefined;
  const found = await scanObjectBytes(ports, record, objectByteSource(ports.storage, record.storageKey, record.fileSize), { attempt });
  if (isEngineFailure(found)) {
    ports.malware?.unavailable(ref, found.error);
    throw found.error;
  }
  return { ...found, finishedAt: ports.now().toISOString() };
}
