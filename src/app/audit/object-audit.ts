import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import type { Page } from "../../domain/pagination.js";
import type { AuditEntryView, AuditTrail, UploadSessionView } from "./port.js";
import { searchAuditEntries } from "./search-audit-entries.js";

export interface ObjectAudit extends Page<AuditEntryView> {
  /** On the first page only. */
  sessions: UploadSessionView[];
}

/**
 * An object's trail for its whole history: deleted, expired and refused objects included, since
 * that is when an audit is asked for. Another tenant's object stays not found.
 */
export async function objectAudit(trail: AuditTrail, actor: Actor, objectId: string, pageSize: number, pageToken: string): Promise<ObjectAudit> {
  if (!(await trail.objectExists(actor.tenantId, objectId))) throw new AppError("OBJECT_NOT_FOUND", `upload ${objectId} not found`);
  const page = await searchAuditEntries(trail, actor, { filter: { objectId }, order: "oldest_first", pageSize, pageToken });
  const sessions = pageToken ? [] : await trail.sessionsOf(actor.tenantId, objectId);
  return { ...page, sessions };
}
