import { StoredObjectRow } from "../../adapters/postgres/entities/stored-object.js";
import { makeCurrent } from "../../adapters/postgres/replacement.js";
import { writeAudit } from "../../adapters/postgres/audit-store.js";
import { AppError } from "../../domain/errors.js";
import { classRules } from "../../domain/files/object-classes.js";
import { retentionDeadline } from "../../domain/files/retention.js";
import type { Actor, StoredObjectView } from "../../domain/files/stored-object.js";
import { findOrFail, type FileStorageDeps } from "./deps.js";

/** Undo of a replacement: a superseded photo or logo becomes current again while it exists. */
export async function restoreUpload(deps: FileStorageDeps, actor: Actor, objectId: string): Promise<StoredObjectView> {
  const object = await findOrFail(deps, actor, objectId);
  const rules = classRules(object.objectClass);
  if (!rules.replaceable || object.isCurrent || object.status !== "READY" || object.retentionPolicy !== "SUPERSEDED_30D") {
    throw new AppError("OBJECT_NOT_SUPERSEDED", "only a superseded photo or logo can be restored");
  }
  const now = deps.now();
  const displaced = await deps.store.withTransaction(async (em) => {
    const row = await em.findOneOrFail(StoredObjectRow, { tenantId: actor.tenantId, id: objectId, deletedAt: null });
    const ids = await makeCurrent(em, row, retentionDeadline("SUPERSEDED_30D", now, deps.retention)!, now);
    await em.nativeUpdate(StoredObjectRow, { tenantId: actor.tenantId, id: objectId }, {
      retentionPolicy: rules.retention,
      retentionExpiresAt: retentionDeadline(rules.retention, now, deps.retention) ?? null,
    });
    await writeAudit(em, { objectId, action: "OBJECT_RESTORED", actor, details: { displaced: ids }, at: now });
    return ids;
  });
  for (const id of [objectId, ...displaced]) await deps.lifecycle.retentionChanged({ tenantId: actor.tenantId, objectId: id });
  return findOrFail(deps, actor, objectId);
}
