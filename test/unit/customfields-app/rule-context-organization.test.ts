/**
 * The tenant's stored organization profile in the rule context: it wins over a caller's
 * `organization` key (as the user and the time do), and a tenant without one keeps the caller's.
 */
import { describe, expect, it } from "vitest";
import { organizationContext } from "../../../src/app/customfields/deps.js";
import { ruleContext } from "../../../src/app/customfields/rule-context.js";
import { defaultProfile } from "../../../src/domain/organization/profile.js";
import { actor, fakeDeps } from "./fakes.js";

const now = new Date("2026-01-01T00:00:00Z");

describe("ruleContext with an organization", () => {
  it("the stored profile replaces the caller's organization key", () => {
    const context = ruleContext(actor, { organization: { slug: "forged" }, customer: { id: "c1" } }, now, { slug: "acme" });
    expect(context).toMatchObject({ organization: { slug: "acme" }, customer: { id: "c1" }, user: { id: actor.actorId } });
  });

  it("without one the caller's key stays", () => {
    expect(ruleContext(actor, { organization: { slug: "mine" } }, now).organization).toEqual({ slug: "mine" });
  });
});

describe("organizationContext", () => {
  it("is the tenant's stored profile without its version, or undefined", async () => {
    const { deps } = fakeDeps(now);
    expect(await organizationContext(deps, actor.tenantId)).toBeUndefined();
    const stored = { ...defaultProfile(actor.tenantId), slug: "acme", modules: ["crm"], version: 3 };
    deps.organizations = { find: async (tenantId) => (tenantId === actor.tenantId ? stored : undefined) };
    expect(await organizationContext(deps, actor.tenantId)).toEqual({
      id: actor.tenantId,
      slug: "acme",
      companyName: "",
      companyAbbreviation: "",
      modules: ["crm"],
      accountingType: "",
      customFields: {},
    });
    expect(await organizationContext(deps, "another")).toBeUndefined();
  });
});
