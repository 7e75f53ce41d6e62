import type { OrganizationProfiles } from "./port.js";

/** What the organization use cases need; wired in src/main. */
export interface OrganizationDeps {
  store: OrganizationProfiles;
  now(): Date;
}
