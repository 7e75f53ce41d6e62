import type { AuditActionName } from "../domain/files/stored-object.js";
import { isUuid } from "../domain/ids.js";

/**
 * The permission refusals a compliance review asks about, and the audit action each is recorded
 * under: someone without the right tried to remove an object or to move a legal hold. Other 4xx
 * answers (validation, not found, reading without permission) are not audited: they change
 * nothing and would bury these.
 */
const auditedRefusals: Record<string, AuditActionName> = {
  "filestorage.v1.FileStorageService/DeleteUpload": "OBJECT_DELETED",
  "filestorage.v1.FileStorageService/PlaceLegalHold": "HOLD_PLACED",
  "filestorage.v1.FileStorageService/ReleaseLegalHold": "HOLD_RELEASED",
};

/** Told about a refused call on an audited method: who, which object, which action, why. */
export type RefusalAuditor = (refusal: { tenantId: string; actorId: string; requestId?: string; objectId: string; action: AuditActionName; reason: string }) => Promise<void>;

/** The action and object of a refused call worth auditing; undefined for every other call. */
export function auditedRefusal(method: string, message: unknown): { action: AuditActionName; objectId: string } | undefined {
  const action = auditedRefusals[method];
  const objectId = (message as { objectId?: unknown } | undefined)?.objectId;
  // Validation runs after auth: the id is checked here before it names anything.
  if (!action || typeof objectId !== "string" || !isUuid(objectId)) return undefined;
  return { action, objectId: objectId.toLowerCase() };
}
