import { SYSTEM_ACTOR_ID } from "../../../domain/actor.js";
import { settleScan } from "../../../domain/files/scan-settlement.js";
import type { ObjectRef } from "../../../domain/files/object-ref.js";
import type { LifecyclePorts } from "./deps.js";
import { loadLifecycleState, outcomeOf, type StepOutcome } from "./step-outcome.js";
import { announceRetentionChanges } from "./announce-retention-changes.js";
import type { StoredObjectScan } from "./scan-stored-object.js";

/** What started the scan: the complete call it follows from or, without one, the workflow run. */
export interface ScanCause {
  requestId?: string;
  correlationId: string;
}

/**
 * SCANNING → READY or REJECTED; the scan's audit entry carries its cause. The MD5 the scan read
 * becomes the object's checksum where complete left none; a retry writes the same value.
 */
export async function finishScan(ports: LifecyclePorts, ref: ObjectRef, scan: StoredObjectScan, cause: ScanCause): Promise<StepOutcome> {
  const { md5, ...result } = scan;
  const record = await ports.objects.findRecord(ref.tenantId, ref.objectId);
  if (!record || record.deleted || record.status !== "SCANNING") return outcomeOf(record);
  const now = ports.now();
  const settlement = settleScan(record.objectClass, result.passed, now, ports.retention);
  const actor = { tenantId: ref.tenantId, actorId: SYSTEM_ACTOR_ID, ...cause };
  const settled = await ports.objects.finishScan(actor, ref.objectId, result, settlement, now, md5);
  await announceRetentionChanges(ports, ref.tenantId, settled.superseded, "superseded by a newer upload");
  return loadLifecycleState(ports, ref);
}
