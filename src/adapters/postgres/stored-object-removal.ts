import { LockMode } from "@mikro-orm/core";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Actor } from "../../domain/actor.js";
import type { RetentionPolicyName } from "../../domain/files/object-classes.js";
import type { ExpiryCandidate } from "../../domain/files/retention.js";
import { writeAudit } from "./audit-store.js";
import { inTransaction, withDatabase } from "./database-work.js";
import { StoredObjectRow } from "./entities/stored-object.js";

/**
 * Soft-deletes the row when `isDue` holds for it: the row is locked, then the caller's rule decides,
 * so a hold placed a moment before always wins. Shared by the lifecycle's store and the sweep's.
 */
export async function expireStoredObject(orm: MikroORM, actor: Actor, id: string, now: Date, isDue: (candidate: ExpiryCandidate) => boolean): Promise<boolean> {
  return inTransaction(orm, async (em) => {
    const row = await em.findOne(StoredObjectRow, { tenantId: actor.tenantId, id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!row) return false;
    const candidate: ExpiryCandidate = {
      status: row.status,
      retentionPolicy: row.retentionPolicy as RetentionPolicyName,
      retentionExpiresAt: row.retentionExpiresAt,
      legalHold: !!row.legalHoldPlacedAt,
      deleted: !!row.deletedAt,
    };
    if (!isDue(candidate)) return false;
    await em.nativeUpdate(
      StoredObjectRow,
      { tenantId: actor.tenantId, id },
      { deletedAt: now, deleteReason: "EXPIRED", storageDeletePending: true, isCurrent: false, updatedAt: now },
    );
    await writeAudit(em, { objectId: id, action: "OBJECT_EXPIRED", actor, at: now });
    return true;
  });
}

/** The bucket object a deleted row owed is gone. */
export async function markStorageDeleted(orm: MikroORM, tenantId: string, id: string): Promise<void> {
  await withDatabase(orm, (em) => em.nativeUpdate(StoredObjectRow, { tenantId, id }, { storageDeletePending: false }));
}
