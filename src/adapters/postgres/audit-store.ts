import { correlationOf } from "../../domain/actor.js";
import type { EntityManager } from "@mikro-orm/postgresql";
import { v7 as uuidv7 } from "uuid";
import type { AuditRecord } from "../../app/files/port.js";
import { AuditEntryRow } from "./entities/audit-entry.js";

export type { AuditRecord } from "../../app/files/port.js";

/** Inserted in the caller's transaction, so a state change and its audit entry land together. */
export async function writeAudit(em: EntityManager, record: AuditRecord): Promise<void> {
  await em.insert(AuditEntryRow, {
    id: uuidv7(),
    tenantId: record.actor.tenantId,
    objectId: record.objectId,
    action: record.action,
    actorId: record.actor.actorId,
    requestId: record.actor.requestId ?? null,
    correlationId: correlationOf(record.actor),
    result: record.result ?? "SUCCESS",
    details: record.details ?? null,
    occurredAt: record.at,
  });
}
