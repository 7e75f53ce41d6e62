import { SYSTEM_ACTOR_ID } from "../../domain/actor.js";
import type { EntityManager } from "@mikro-orm/postgresql";
import { writeAudit } from "./audit-store.js";
import { StoredObjectRow } from "./entities/stored-object.js";

/**
 * Makes `row` its owner's current photo or logo and supersedes the previous one, inside the
 * caller's transaction. The advisory lock serializes uploads racing for one owner, so the later
 * to become READY wins and exactly one file stays current (a unique index backs this up).
 * Returns the ids of the files it superseded.
 */
export async function makeCurrent(em: EntityManager, row: StoredObjectRow, supersededExpiresAt: Date, now: Date): Promise<string[]> {
  const lockKey = `${row.tenantId}/${row.ownerEntityType}/${row.ownerEntityId}/${row.objectClass}`;
  await em.execute("select pg_advisory_xact_lock(hashtextextended(?, 0))", [lockKey]);
  const previous = await em.find(StoredObjectRow, {
    tenantId: row.tenantId,
    ownerEntityType: row.ownerEntityType,
    ownerEntityId: row.ownerEntityId,
    objectClass: row.objectClass,
    isCurrent: true,
    deletedAt: null,
    id: { $ne: row.id },
  });
  const actor = { tenantId: row.tenantId, actorId: SYSTEM_ACTOR_ID };
  for (const old of previous) {
    await em.nativeUpdate(StoredObjectRow, { tenantId: row.tenantId, id: old.id }, {
      isCurrent: false,
      retentionPolicy: "SUPERSEDED_30D",
      retentionExpiresAt: supersededExpiresAt,
      updatedAt: now,
    });
    await writeAudit(em, { objectId: old.id, action: "OBJECT_SUPERSEDED", actor, details: { supersededBy: row.id }, at: now });
  }
  await em.nativeUpdate(StoredObjectRow, { tenantId: row.tenantId, id: row.id }, { isCurrent: true, updatedAt: now });
  return previous.map((p) => p.id);
}
