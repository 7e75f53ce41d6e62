import { settleScan } from "../../../domain/files/scan-settlement.js";
import { SYSTEM_ACTOR_ID, type ScanResultView } from "../../../domain/files/stored-object.js";
import type { LifecyclePorts, ObjectRef } from "./lifecycle-ports.js";
import { loadLifecycleState, outcomeOf, type StepOutcome } from "./step-outcome.js";
import { announceSuperseded } from "./storage-delete.js";

/**
 * SCANNING → READY or REJECTED. `requestId`: the complete call that led to this scan, so the
 * scan's audit entry correlates with it.
 */
export async function finishScan(ports: LifecyclePorts, ref: ObjectRef, result: ScanResultView, requestId?: string): Promise<StepOutcome> {
  const record = await ports.objects.findRecord(ref.tenantId, ref.objectId);
  if (!record || record.deleted || record.status !== "SCANNING") return outcomeOf(record);
  const now = ports.now();
  const settlement = settleScan(record.objectClass, result.passed, now, ports.retention);
  const actor = { tenantId: ref.tenantId, actorId: SYSTEM_ACTOR_ID, requestId };
  const settled = await ports.objects.finishScan(actor, ref.objectId, result, settlement, now);
  await announceSuperseded(ports, ref.tenantId, settled.superseded);
  return loadLifecycleState(ports, ref);
}
