import type { OrganizationProfile as ProfileMessage } from "@files-and-fields/client/gen/customfields/v1/organization_service_pb.js";
import { profileContext } from "../../../../src/domain/organization/profile.js";

/**
 * The organization as the server's rule context holds it, from GetOrganizationProfile's answer.
 * A tenant that never stored a profile is answered the default one (version 0); the server then
 * puts no organization in the context (a caller's `organization` key stands), and so does this.
 */
export function organizationContextOf(msg: ProfileMessage | undefined): Record<string, unknown> | undefined {
  if (!msg || msg.version === 0) return undefined;
  return profileContext({
    id: msg.id,
    slug: msg.slug,
    companyName: msg.companyName,
    companyAbbreviation: msg.companyAbbreviation,
    modules: [...msg.modules],
    accountingType: msg.accountingType,
    customFields: msg.customFields ?? {},
    version: msg.version,
  });
}
