import type { Actor } from "../../domain/actor.js";
import type { AuditActionName } from "../../domain/files/stored-object.js";
import type { FileStorageDeps } from "./deps.js";

/**
 * A refused attempt on one of the tenant's objects, as a FAILURE entry of the action that was
 * refused, once per request id. Ids the tenant does not have leave no trace: they name nothing.
 */
export async function recordRefusal(
  deps: Pick<FileStorageDeps, "store" | "now">,
  actor: Actor,
  objectId: string,
  action: AuditActionName,
  reason: string,
): Promise<void> {
  if (!(await deps.store.findRecord(actor.tenantId, objectId))) return;
  await deps.store.auditOnce({ objectId, action, actor, result: "FAILURE", details: { reason }, at: deps.now() });
}
