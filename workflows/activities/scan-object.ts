import { ApplicationFailure } from "@temporalio/activity";
import { scanFile } from "../../src/domain/files/checks/scanner.js";
import type { ScanResultView } from "../../src/domain/files/stored-object.js";
import { storageByteSource } from "../../src/adapters/s3/storage-byte-source.js";
import type { ObjectRef } from "../definitions.js";
import type { ActivityDeps } from "./create-activities.js";

/**
 * Runs the checks on the real bytes. Content problems are a failed check, never an error; an
 * error here is a storage fault, which Temporal retries.
 */
export async function scanObjectActivity(
  deps: ActivityDeps,
  ref: ObjectRef,
  heartbeat: (bytesRead: number) => void,
): Promise<ScanResultView> {
  const row = await deps.store.findAny(ref.tenantId, ref.objectId);
  if (!row || row.deletedAt) throw ApplicationFailure.nonRetryable("object is gone", "OBJECT_NOT_FOUND");
  const source = storageByteSource(deps.storage, row.storageKey, Number(row.fileSize));
  const outcome = await scanFile(row.contentType, source, { onProgress: heartbeat });
  return { ...outcome, finishedAt: deps.now().toISOString() };
}
