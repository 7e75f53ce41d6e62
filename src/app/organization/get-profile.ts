import type { Actor } from "../../domain/actor.js";
import { defaultProfile, type OrganizationProfile } from "../../domain/organization/profile.js";
import type { OrganizationDeps } from "./deps.js";

/** The caller's tenant's profile; the default one (never a not-found) when none was stored. */
export async function getProfile(deps: Pick<OrganizationDeps, "store">, actor: Actor): Promise<OrganizationProfile> {
  return (await deps.store.find(actor.tenantId)) ?? defaultProfile(actor.tenantId);
}
