import { StoredObjectRow } from "../../src/adapters/postgres/entities/stored-object.js";
import { makeCurrent } from "../../src/adapters/postgres/replacement.js";
import { classRules } from "../../src/domain/files/object-classes.js";
import { retentionDeadline } from "../../src/domain/files/retention.js";
import { SYSTEM_ACTOR_ID, type ScanResultView } from "../../src/domain/files/stored-object.js";
import type { ObjectRef } from "../definitions.js";
import type { ActivityDeps } from "./create-activities.js";

export async function finishScanActivity(deps: ActivityDeps, ref: ObjectRef, result: ScanResultView): Promise<{ status: string }> {
  const row = await deps.store.findAny(ref.tenantId, ref.objectId);
  if (!row || row.deletedAt) return { status: row?.status ?? "GONE" };
  if (row.status !== "SCANNING") return { status: row.status };
  const now = deps.now();
  const rules = classRules(row.objectClass);
  const status = result.passed ? "READY" : "REJECTED";
  const retentionPolicy = result.passed ? rules.retention : "FAILED_UPLOAD_7D";
  const retentionExpiresAt = retentionDeadline(retentionPolicy, now, deps.retention) ?? null;
  let superseded: string[] = [];
  const actor = { tenantId: ref.tenantId, actorId: SYSTEM_ACTOR_ID };
  await deps.store.finishScan(actor, ref.objectId, result, { status, retentionPolicy, retentionExpiresAt }, now, async (em) => {
    if (!result.passed) return;
    if (rules.replaceable) {
      superseded = await makeCurrent(em, row, retentionDeadline("SUPERSEDED_30D", now, deps.retention)!, now);
      // Stamped under the owner's lock: readyAt orders racing uploads as the lock did, so the
      // current file is always the one that became READY last.
      await em.execute("update stored_objects set ready_at = clock_timestamp() where tenant_id = ? and id = ?", [row.tenantId, row.id]);
    }
    else await em.nativeUpdate(StoredObjectRow, { tenantId: row.tenantId, id: row.id }, { isCurrent: true });
  });
  for (const objectId of superseded) await deps.retentionChanged({ tenantId: ref.tenantId, objectId });
  return { status };
}
