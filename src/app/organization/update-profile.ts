import type { Actor } from "../../domain/actor.js";
import type { OrganizationProfile, OrganizationProfileChanges } from "../../domain/organization/profile.js";
import type { OrganizationDeps } from "./deps.js";
import { getProfile } from "./get-profile.js";

/** Writes the given fields of the caller's tenant's profile; nothing given answers it unchanged. */
export async function updateProfile(deps: OrganizationDeps, actor: Actor, changes: OrganizationProfileChanges): Promise<OrganizationProfile> {
  if (Object.keys(changes).length === 0) return getProfile(deps, actor);
  return deps.store.upsert(actor.tenantId, changes, deps.now());
}
