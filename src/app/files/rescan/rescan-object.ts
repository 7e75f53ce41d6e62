import { SYSTEM_ACTOR_ID } from "../../../domain/actor.js";
import { malwareRecord } from "../../../domain/files/malware/malware-check.js";
import { scannedWith } from "../../../domain/files/malware/rescan-window.js";
import type { ObjectRef } from "../../../domain/files/object-ref.js";
import { settleScan } from "../../../domain/files/scan-settlement.js";
import type { RetentionDurations } from "../../../domain/files/retention.js";
import type { MalwareEngine } from "../lifecycle/deps.js";
import type { ObjectStorage } from "../port.js";
import type { RescanObjects } from "./port.js";

export interface RescanDeps {
  objects: RescanObjects;
  storage: Pick<ObjectStorage, "stream" | "head">;
  malware: MalwareEngine;
  retention: RetentionDurations;
  /** Tells the object's workflow to re-read its state (its search attributes, its new deadline). */
  statusChanged(ref: ObjectRef): Promise<void>;
  now(): Date;
}

/** What one object's re-scan did. */
/** "missing": the row is READY but the bucket has no bytes under its key (nothing to scan). */
export type RescanOutcome = "clean" | "quarantined" | "skipped" | "missing";

/**
 * Scans one READY object again: its bytes read once from storage, streamed to the engine. A
 * detection quarantines it (refused downloads, the failed-upload retention, audit and webhook);
 * clean (or "too-large", which the upload scan would have refused already) changes nothing. The
 * engine failing is an error: Temporal retries, and the object is never called clean without a
 * verdict. Repeated after it succeeded, it finds the object no longer READY and answers "skipped"
 * after telling its workflow again (the first run's signal may be what was lost).
 */
export async function rescanObject(deps: RescanDeps, ref: ObjectRef, databaseVersion: number, correlationId: string): Promise<RescanOutcome> {
  const record = await deps.objects.findRecord(ref.tenantId, ref.objectId);
  if (record?.status === "QUARANTINED" && !record.deleted) {
    await deps.statusChanged(ref);
    return "skipped";
  }
  if (!record || record.deleted || record.status !== "READY") return "skipped";
  if (scannedWith(record.scanResult?.malware?.databaseVersion, databaseVersion)) return "skipped";
  let verdict;
  try {
    verdict = await deps.malware.scanner.scan(deps.storage.stream(record.storageKey));
  } catch (error) {
    // Bytes removed behind the service's back would fail every retry and hold up the whole re-scan.
    if (!(await deps.storage.head(record.storageKey))) return "missing";
    deps.malware.unavailable(ref, error);
    throw error;
  }
  if (verdict.verdict !== "infected") return "clean";
  const now = deps.now();
  // Asked afresh, not from the cache: the record must name the database that found it.
  const malware = malwareRecord(verdict, await deps.malware.scanner.version());
  const { retentionPolicy, retentionExpiresAt } = settleScan(record.objectClass, false, now, deps.retention);
  const actor = { tenantId: ref.tenantId, actorId: SYSTEM_ACTOR_ID, correlationId };
  await deps.objects.quarantine(actor, ref.objectId, malware, { retentionPolicy, retentionExpiresAt }, now);
  await deps.statusChanged(ref);
  return "quarantined";
}
