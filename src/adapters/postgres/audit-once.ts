import type { MikroORM } from "@mikro-orm/postgresql";
import { correlationOf } from "../../domain/actor.js";
import { type AuditRecord, writeAudit } from "./audit-store.js";
import { inTransaction } from "./database-work.js";
import { AuditEntryRow } from "./entities/audit-entry.js";

/** Writes the entry unless one with the same object, action, result and correlation id exists (a retried call or activity). */
export async function writeAuditOnce(orm: MikroORM, record: AuditRecord): Promise<void> {
  await inTransaction(orm, async (em) => {
    const { actor } = record;
    const correlationId = correlationOf(actor);
    if (correlationId) {
      // Two repeats racing each other must not both find nothing and both write.
      await em.execute("select pg_advisory_xact_lock(hashtextextended(?, 0))", [`audit-once:${actor.tenantId}:${record.objectId}:${record.action}:${correlationId}`]);
      const seen = await em.count(AuditEntryRow, { tenantId: actor.tenantId, objectId: record.objectId, action: record.action, correlationId, result: record.result ?? "SUCCESS" });
      if (seen > 0) return;
    }
    await writeAudit(em, record);
  });
}
