import { createHash } from "node:crypto";
import type { ScanResultView } from "../../../domain/files/stored-object.js";
import type { ObjectRef } from "../../../domain/files/object-ref.js";
import type { LifecyclePorts } from "./deps.js";
import { md5Tap } from "./md5-tap.js";
import { objectByteSource } from "./object-bytes.js";
import type { ScanAttempt } from "./scan-checkpoint.js";
import { isEngineFailure, scanObjectBytes } from "./scan-object-bytes.js";

/**
 * The scan activity's result: the verdict and, where the object has no MD5 yet (complete left it
 * to this read: a multipart upload with nothing declared), the MD5 of the bytes it read. An
 * optional field, so histories recorded before it replay unchanged.
 */
export interface StoredObjectScan extends ScanResultView {
  md5?: string;
}

/**
 * Runs the checks and the malware engine on the real bytes of an object that is SCANNING. Content
 * problems and detections are a failed check, never an error. An error here is a storage fault or
 * the engine's failure, which Temporal retries with backoff while the object stays SCANNING (fail
 * closed: no verdict, no READY), or the abort reason of a superseded attempt, which stops at its
 * next checkpoint. Answers undefined when the object is no longer SCANNING (the workflow then
 * re-reads its state).
 */
export async function scanStoredObject(ports: LifecyclePorts, ref: ObjectRef, attempt: ScanAttempt): Promise<StoredObjectScan | undefined> {
  const record = await ports.objects.findRecord(ref.tenantId, ref.objectId);
  if (!record || record.deleted || record.status !== "SCANNING") return undefined;
  const bytes = objectByteSource(ports.storage, record.storageKey, record.fileSize);
  const tap = record.checksum ? undefined : md5Tap(bytes);
  const found = await scanObjectBytes(ports, record, tap?.source ?? bytes, { attempt });
  if (isEngineFailure(found)) {
    ports.malware?.unavailable(ref, found.error);
    throw found.error;
  }
  const scan = { ...found, finishedAt: ports.now().toISOString() };
  return tap ? { ...scan, md5: tap.md5() ?? (await readMd5(bytes.stream(), attempt)) } : scan;
}

/** The scan stopped before the end (the engine's size limit, or no engine and no check wanted every byte): read the rest for the MD5. */
async function readMd5(stream: AsyncIterable<Uint8Array>, attempt: ScanAttempt): Promise<string> {
  const hash = createHash("md5");
  let read = 0;
  for await (const chunk of stream) {
    attempt.signal?.throwIfAborted();
    hash.update(chunk);
    read += chunk.length;
    attempt.heartbeat(read);
  }
  return hash.digest("hex");
}
