/** What the organization use cases need from outside: the profile store (src/adapters/postgres). */
import type { OrganizationProfile, OrganizationProfileChanges } from "../../domain/organization/profile.js";

export interface OrganizationProfiles {
  /** The stored profile of the tenant; undefined when it never stored one. */
  find(tenantId: string): Promise<OrganizationProfile | undefined>;
  /** Writes `changes` over the stored profile (or the default one) at version + 1; answers the result. */
  upsert(tenantId: string, changes: OrganizationProfileChanges, at: Date): Promise<OrganizationProfile>;
}
