import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import { classRules } from "../../domain/files/object-classes.js";
import { retentionDeadline } from "../../domain/files/retention.js";
import type { StoredObjectView } from "../../domain/files/stored-object.js";
import { supersededDeadline } from "../../domain/files/supersession.js";
import { findOrFail, type FileStorageDeps } from "./deps.js";
import { announceRetentionChanges } from "./lifecycle/announce-retention-changes.js";

/** Undo of a replacement: a superseded photo or logo becomes current again while it exists. */
export async function restoreUpload(deps: FileStorageDeps, actor: Actor, objectId: string): Promise<StoredObjectView> {
  const object = await findOrFail(deps, actor, objectId);
  const rules = classRules(object.objectClass);
  if (!rules.replaceable || object.isCurrent || object.status !== "READY" || object.retentionPolicy !== "SUPERSEDED_30D") {
    throw new AppError("OBJECT_NOT_SUPERSEDED", "only a superseded photo or logo can be restored");
  }
  const now = deps.now();
  const displaced = await deps.store.restore(actor, object.id, {
    retentionPolicy: rules.retention,
    retentionExpiresAt: retentionDeadline(rules.retention, now, deps.retention) ?? null,
    supersededExpiresAt: supersededDeadline(now, deps.retention),
  }, now);
  await announceRetentionChanges(deps.lifecycle, actor.tenantId, [object.id, ...displaced]);
  return findOrFail(deps, actor, objectId);
}
