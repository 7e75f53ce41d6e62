import { scanFile } from "../../../domain/files/checks/scanner.js";
import type { ScanResultView } from "../../../domain/files/stored-object.js";
import type { LifecyclePorts, ObjectRef } from "./lifecycle-ports.js";
import { objectByteSource } from "./object-bytes.js";

/**
 * Runs the checks on the real bytes of an object that is SCANNING. Content problems are a failed
 * check, never an error; an error here is a storage fault, which Temporal retries. Answers
 * undefined when the object is no longer SCANNING (the workflow then re-reads its state).
 */
export async function scanStoredObject(
  ports: LifecyclePorts,
  ref: ObjectRef,
  heartbeat: (bytesRead: number) => void,
): Promise<ScanResultView | undefined> {
  const record = await ports.objects.findRecord(ref.tenantId, ref.objectId);
  if (!record || record.deleted || record.status !== "SCANNING") return undefined;
  const outcome = await scanFile(record.contentType, objectByteSource(ports.storage, record.storageKey, record.fileSize), { onProgress: heartbeat });
  return { ...outcome, finishedAt: ports.now().toISOString() };
}
