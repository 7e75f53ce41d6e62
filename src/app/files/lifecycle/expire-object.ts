import { isExpired } from "../../../domain/files/retention.js";
import { SYSTEM_ACTOR_ID } from "../../../domain/files/stored-object.js";
import type { LifecyclePorts, ObjectRef } from "./lifecycle-ports.js";
import { loadLifecycleState, type StepOutcome } from "./step-outcome.js";
import { finishStorageDelete } from "./storage-delete.js";

/**
 * The object's deadline timer fired (or the sweep found it overdue): expire it if the one rule,
 * `isExpired`, holds for the row under its lock. Answers whether it expired now and the state.
 */
export async function expireObject(ports: Pick<LifecyclePorts, "objects" | "storage" | "now">, ref: ObjectRef): Promise<StepOutcome & { expired: boolean }> {
  const now = ports.now();
  const actor = { tenantId: ref.tenantId, actorId: SYSTEM_ACTOR_ID };
  const expired = await ports.objects.expire(actor, ref.objectId, now, (candidate) => isExpired(candidate, now));
  await finishStorageDelete(ports, ref);
  return { ...(await loadLifecycleState(ports, ref)), expired };
}
