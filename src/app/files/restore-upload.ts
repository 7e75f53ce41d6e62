import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import { classRules } from "../../domain/files/object-classes.js";
import { retentionDeadline } from "../../domain/files/retention.js";
import type { StoredObjectView } from "../../domain/files/stored-object.js";
import { isRestorable, supersededDeadline } from "../../domain/files/supersession.js";
import { findOrFail, type FileStorageDeps } from "./deps.js";
import { announceRetentionChanges } from "./lifecycle/announce-retention-changes.js";

/** Undo of a replacement: a superseded photo or logo becomes current again while it exists. */
export async function restoreUpload(deps: FileStorageDeps, actor: Actor, objectId: string): Promise<StoredObjectView> {
  const object = await findOrFail(deps, actor, objectId);
  const rules = classRules(object.objectClass);
  const notSuperseded = () => new AppError("OBJECT_NOT_SUPERSEDED", "only a superseded photo or logo can be restored");
  if (!isRestorable({ ...object, deleted: false }, rules.replaceable)) throw notSuperseded();
  const now = deps.now();
  // Decided again by the store on the locked row: an expiry may have committed since the read.
  const displaced = await deps.store.restore(actor, object.id, {
    retentionPolicy: rules.retention,
    retentionExpiresAt: retentionDeadline(rules.retention, now, deps.retention) ?? null,
    supersededExpiresAt: supersededDeadline(now, deps.retention),
  }, now, (candidate) => isRestorable(candidate, rules.replaceable));
  if (!displaced) throw notSuperseded();
  await announceRetentionChanges(deps.lifecycle, actor.tenantId, [object.id], "restored");
  await announceRetentionChanges(deps.lifecycle, actor.tenantId, displaced, "superseded by a restored upload");
  return findOrFail(deps, actor, objectId);
}
