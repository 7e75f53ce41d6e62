/**
 * The organization profile at its contract, in memory: the default profile of a tenant that never
 * stored one, update masks, permissions, tenant scoping, and the profile in the rule context that
 * resolve and validate use. The SQL store is tested in test/integration/custom-fields.test.ts.
 */
import { create } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { beforeEach, describe, expect, it } from "vitest";
import { OrganizationService } from "@files-and-fields/client/gen/customfields/v1/organization_service_pb.js";
import { refusalOf } from "../../support/errors.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

const empty = { slug: "", companyName: "", companyAbbreviation: "", modules: [], accountingType: "", customFields: {}, version: 0 };

let api: InMemoryApi;
let token: string;
beforeEach(async () => {
  api = inMemoryApi();
  token = await api.token("t1", { user: "alice" });
});

describe("GetOrganizationProfile", () => {
  it("answers the default profile (id = tenant id, empty fields) when none was stored, not 404", async () => {
    const res = await api.rest("GET", "/api/v1/organization", { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.organization).toEqual({ id: "t1", ...empty });
  });

  it("needs organization:READ", async () => {
    const other = await api.token("t1", { perms: ["custom_field_definition:READ"] });
    const res = await api.rest("GET", "/api/v1/organization", { token: other });
    expect(res.status).toBe(403);
  });
});

describe("UpdateOrganizationProfile", () => {
  const profile = {
    slug: "acme",
    companyName: "Acme Gesellschaft",
    companyAbbreviation: "ACME",
    modules: ["customers", "ledger"],
    accountingType: "ACCRUAL",
    customFields: { region: "EU" },
  };

  it("writes the body's fields, counts versions, and keeps what the body leaves out", async () => {
    const first = await api.rest("PATCH", "/api/v1/organization", { token, body: profile });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.organization).toEqual({ id: "t1", ...profile, version: 1 });
    const second = await api.rest("PATCH", "/api/v1/organization", { token, body: { companyName: "Acme AG" } });
    expect(second.body.organization).toEqual({ id: "t1", ...profile, companyName: "Acme AG", version: 2 });
    expect((await api.rest("GET", "/api/v1/organization", { token })).body.organization.companyName).toBe("Acme AG");
  });

  it("clears a field the mask names but the request leaves unset", async () => {
    const client = api.client(OrganizationService, token);
    await client.updateOrganizationProfile(profile);
    const res = await client.updateOrganizationProfile({ updateMask: create(FieldMaskSchema, { paths: ["modules", "slug"] }) });
    expect(res.organization).toMatchObject({ slug: "", modules: [], companyName: "Acme Gesellschaft" });
  });

  it("refuses a mask path that is no writable field, and an invalid slug", async () => {
    const client = api.client(OrganizationService, token);
    expect(await refusalOf(client.updateOrganizationProfile({ updateMask: create(FieldMaskSchema, { paths: ["id"] }) }))).toMatchObject({
      code: "InvalidArgument",
      fields: ["updateMask"],
    });
    const res = await api.rest("PATCH", "/api/v1/organization", { token, body: { slug: "Not A Slug" } });
    expect(res.status).toBe(400);
  });

  it("needs organization:MANAGE; organization:READ is not enough", async () => {
    const reader = await api.token("t1", { perms: ["organization:READ"] });
    const res = await api.rest("PATCH", "/api/v1/organization", { token: reader, body: { slug: "x" } });
    expect(res.status).toBe(403);
    expect(api.organizations.rows.size).toBe(0);
  });

  it("is per tenant: another tenant still sees its default profile", async () => {
    await api.rest("PATCH", "/api/v1/organization", { token, body: profile });
    const other = await api.token("t2");
    expect((await api.rest("GET", "/api/v1/organization", { token: other })).body.organization).toEqual({ id: "t2", ...empty });
  });
});

describe("the profile in the rule context", () => {
  it("formulas and rules see the stored profile as `organization`, over the caller's own key", async () => {
    await api.rest("PATCH", "/api/v1/organization", { token, body: { companyAbbreviation: "ACME", accountingType: "CASH" } });
    const define = (body: Record<string, unknown>) => api.rest("POST", "/api/v1/custom-fields", { token, body: { entityType: "Customer", ...body } });
    expect((await define({ fieldKey: "prefix", fieldLabel: "Prefix", fieldType: "computed", computedFormula: "organization.companyAbbreviation" })).status).toBe(200);
    const rule = {
      name: "cash",
      when: { operator: "AND", conditions: [{ field: "organization.accountingType", operator: "equals", value: "CASH" }] },
      then: { defaultValue: "monthly" },
    };
    expect((await define({ fieldKey: "billing", fieldLabel: "Billing", fieldType: "string", defaultStrategy: "RULE_BASED", defaultRules: [rule] })).status).toBe(200);
    const res = await api.rest("POST", "/api/v1/custom-fields/Customer:resolve", {
      token,
      body: { customFields: {}, context: { organization: { companyAbbreviation: "FAKE", accountingType: "ACCRUAL" } } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.customFields).toMatchObject({ prefix: "ACME", billing: "monthly" });
  });

  it("without a stored profile the caller's organization key is used as before", async () => {
    await api.rest("POST", "/api/v1/custom-fields", {
      token,
      body: { entityType: "Customer", fieldKey: "prefix", fieldLabel: "Prefix", fieldType: "computed", computedFormula: "organization.companyAbbreviation" },
    });
    const res = await api.rest("POST", "/api/v1/custom-fields/Customer:resolve", { token, body: { customFields: {}, context: { organization: { companyAbbreviation: "MINE" } } } });
    expect(res.body.customFields).toMatchObject({ prefix: "MINE" });
  });
});
