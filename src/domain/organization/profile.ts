/**
 * A tenant's organization profile: what rules and formulas see as `organization`. One per tenant;
 * its id is the tenant id, so a tenant that never stored one has the default profile.
 */
export interface OrganizationProfile {
  id: string;
  slug: string;
  companyName: string;
  companyAbbreviation: string;
  modules: string[];
  accountingType: string;
  customFields: Record<string, unknown>;
  /** 0 for the default profile, which is not stored. */
  version: number;
}

/** The writable fields; an update gives only those it writes. */
export type OrganizationProfileChanges = Partial<Omit<OrganizationProfile, "id" | "version">>;

export function defaultProfile(tenantId: string): OrganizationProfile {
  return { id: tenantId, slug: "", companyName: "", companyAbbreviation: "", modules: [], accountingType: "", customFields: {}, version: 0 };
}

/** The profile as the rule context holds it: the fields without the version, which is bookkeeping. */
export function profileContext(profile: OrganizationProfile): Record<string, unknown> {
  const { version: _version, ...fields } = profile;
  return structuredClone(fields);
}
