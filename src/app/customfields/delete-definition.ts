import type { Actor } from "../../domain/actor.js";
import { findDefinitionOrFail, retryOnConcurrentChange, withInvalidation, type CustomFieldsDeps } from "./deps.js";

/**
 * Soft delete: deletedAt set, isActive false, version + 1, audited. Stored values stay on the
 * entities; the key may be defined again.
 */
export async function deleteDefinition(deps: CustomFieldsDeps, actor: Actor, id: string): Promise<void> {
  await retryOnConcurrentChange(async () => {
    const existing = await findDefinitionOrFail(deps, actor, id);
    const now = deps.now();
    const audit = {
      definitionId: id,
      action: "DELETED" as const,
      actor,
      oldVersion: existing.version,
      newVersion: existing.version + 1,
      changes: { deletedAt: { old: null, new: now }, isActive: { old: existing.isActive, new: false } },
      at: now,
    };
    const deleted = await withInvalidation(deps, actor.tenantId, existing.entityType, () =>
      deps.store.softDelete(actor.tenantId, id, existing.version, audit),
    );
    return deleted ? true : undefined;
  });
}
