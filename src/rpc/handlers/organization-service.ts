import type { JsonObject } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { OrganizationService, type UpdateOrganizationProfileRequest } from "@files-and-fields/client/gen/customfields/v1/organization_service_pb.js";
import type { OrganizationDeps } from "../../app/organization/deps.js";
import { getProfile } from "../../app/organization/get-profile.js";
import { updateProfile } from "../../app/organization/update-profile.js";
import { validationFailed } from "../../domain/errors.js";
import type { OrganizationProfile, OrganizationProfileChanges } from "../../domain/organization/profile.js";
import { readUpdateMask } from "../update-mask.js";
import { actorOf } from "./actor.js";

/** Translates between the contract and the organization profile use cases, and nothing else. */
export function registerOrganizationService(router: ConnectRouter, deps: OrganizationDeps): void {
  router.service(OrganizationService, {
    async getOrganizationProfile(_req, ctx) {
      return { organization: toProfileMessage(await getProfile(deps, actorOf(ctx))) };
    },
    async updateOrganizationProfile(req, ctx) {
      return { organization: toProfileMessage(await updateProfile(deps, actorOf(ctx), profileChanges(req))) };
    },
  });
}

function toProfileMessage(profile: OrganizationProfile) {
  return { ...profile, customFields: profile.customFields as JsonObject };
}

const PLUMBING = new Set(["update_mask"]);

/** Per mask path: the field it writes, whether the request sets it, and its value (unset clears). */
const FIELDS: Record<string, { field: keyof OrganizationProfileChanges; isSet(r: UpdateOrganizationProfileRequest): boolean; value(r: UpdateOrganizationProfileRequest): unknown }> = {
  slug: { field: "slug", isSet: (r) => r.slug !== undefined, value: (r) => r.slug ?? "" },
  company_name: { field: "companyName", isSet: (r) => r.companyName !== undefined, value: (r) => r.companyName ?? "" },
  company_abbreviation: { field: "companyAbbreviation", isSet: (r) => r.companyAbbreviation !== undefined, value: (r) => r.companyAbbreviation ?? "" },
  modules: { field: "modules", isSet: (r) => r.modules.length > 0, value: (r) => r.modules },
  accounting_type: { field: "accountingType", isSet: (r) => r.accountingType !== undefined, value: (r) => r.accountingType ?? "" },
  custom_fields: { field: "customFields", isSet: (r) => r.customFields !== undefined, value: (r) => r.customFields ?? {} },
};

/** The fields the mask names, or without a mask those the request sets; a named unset field is cleared. */
function profileChanges(req: UpdateOrganizationProfileRequest): OrganizationProfileChanges {
  const mask = readUpdateMask(req.updateMask, new Set(Object.keys(FIELDS)), PLUMBING);
  if (mask.violations.length > 0) throw validationFailed(mask.violations);
  const changes: Record<string, unknown> = {};
  for (const [path, { field, isSet, value }] of Object.entries(FIELDS)) {
    if (mask.writes(path, isSet(req))) changes[field] = value(req);
  }
  return changes as OrganizationProfileChanges;
}
