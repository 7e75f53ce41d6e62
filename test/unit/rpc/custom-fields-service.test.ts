/**
 * The custom field definition service at its contract, over the JSON API and a typed client, in
 * memory: the schema rules and their violations, immutable keys, update masks, tenant scoping and
 * the refusals of the three integration calls. What the database adds (stored casing, audit rows,
 * the unique index, soft-deleted rows) is in test/integration/custom-fields.test.ts.
 */
import { create } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { beforeEach, describe, expect, it } from "vitest";
import { CustomFieldsService } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { reasonOf, refusalOf, violationsOf } from "../../support/errors.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

const tierBody = {
  entityType: "Customer",
  fieldKey: "tier",
  fieldLabel: "Tier",
  fieldType: "SELECT",
  uiConfig: { options: [{ label: "Gold", value: "gold" }, { label: "Silver", value: "silver" }] },
  defaultValue: "silver",
  displayOrder: 2,
};

let api: InMemoryApi;
let token: string;
beforeEach(async () => {
  api = inMemoryApi();
  token = await api.token("t1", { user: "alice" });
});

async function createRest(body: Record<string, unknown>) {
  const res = await api.rest("POST", "/api/v1/custom-fields", { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.fieldDefinition;
}

describe("definitions over the JSON API", () => {
  it("updates only the fields in the body, increments the version, and clears a field sent as null", async () => {
    const tier = await createRest({ ...tierBody, description: "membership level" });
    const res = await api.rest("PATCH", `/api/v1/custom-fields/${tier.id}`, { token, body: { fieldLabel: "Membership tier", description: null, expectedVersion: 1 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.fieldDefinition).toMatchObject({ fieldLabel: "Membership tier", version: 2, fieldType: "select", displayOrder: 2, defaultValue: "silver" });
    expect(res.body.fieldDefinition.description).toBeUndefined();
    expect(res.body.fieldDefinition.uiConfig.options).toHaveLength(2);
  });

  it("answers a stale expectedVersion with 409 aborted VERSION_CONFLICT and changes nothing", async () => {
    const tier = await createRest(tierBody);
    await api.rest("PATCH", `/api/v1/custom-fields/${tier.id}`, { token, body: { fieldLabel: "Second" } });
    const res = await api.rest("PATCH", `/api/v1/custom-fields/${tier.id}`, { token, body: { fieldLabel: "Lost", expectedVersion: 1 } });
    expect([res.status, res.body.code, reasonOf(res.body)]).toEqual([409, "aborted", "VERSION_CONFLICT"]);
    const list = await api.rest("GET", "/api/v1/custom-fields/Customer", { token });
    expect(list.body.fieldDefinitions[0]).toMatchObject({ fieldLabel: "Second", version: 2 });
  });

  it("refuses to change fieldKey or entityType, and accepts them unchanged", async () => {
    const tier = await createRest(tierBody);
    const changed = await api.rest("PATCH", `/api/v1/custom-fields/${tier.id}`, { token, body: { fieldKey: "level" } });
    expect(changed.status).toBe(400);
    expect(reasonOf(changed.body)).toBe("FIELD_KEY_IMMUTABLE");
    expect(violationsOf(changed.body)).toEqual(["fieldKey"]);
    const same = await api.rest("PATCH", `/api/v1/custom-fields/${tier.id}`, { token, body: { fieldKey: "tier", entityType: "Customer", isRequired: true } });
    expect(same.status).toBe(200);
    expect(same.body.fieldDefinition).toMatchObject({ isRequired: true, version: 2 });
  });

  it("treats another tenant's definition as not found", async () => {
    const tier = await createRest(tierBody);
    const other = await api.token("t2");
    const update = await api.rest("PATCH", `/api/v1/custom-fields/${tier.id}`, { token: other, body: { fieldLabel: "x" } });
    expect(update.status).toBe(404);
    expect(reasonOf(update.body)).toBe("FIELD_DEFINITION_NOT_FOUND");
    const remove = await api.rest("DELETE", `/api/v1/custom-fields/${tier.id}`, { token: other });
    expect([remove.status, reasonOf(remove.body)]).toEqual([404, "FIELD_DEFINITION_NOT_FOUND"]);
    expect((await api.rest("GET", "/api/v1/custom-fields/Customer", { token: other })).body.fieldDefinitions).toEqual([]);
    expect(api.fields.rows.get(tier.id)).toMatchObject({ fieldLabel: "Tier", version: 1 });
  });

  describe("request-schema rules", () => {
    it("rules 1 and 2: a computed field needs a formula, a rule-based default needs rules, one violation per field", async () => {
      const res = await api.rest("POST", "/api/v1/custom-fields", {
        token,
        body: { entityType: "Customer", fieldKey: "total", fieldLabel: "Total", fieldType: "computed", defaultStrategy: "RULE_BASED" },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("invalid_argument");
      expect(reasonOf(res.body)).toBe("VALIDATION_FAILED");
      expect(violationsOf(res.body).sort()).toEqual(["computedFormula", "defaultRules"]);
    });

    it("rule 3: a select field needs options", async () => {
      const res = await api.rest("POST", "/api/v1/custom-fields", { token, body: { ...tierBody, uiConfig: { options: [] }, defaultValue: undefined } });
      expect(res.status).toBe(400);
      expect(violationsOf(res.body)).toEqual(["uiConfig.options"]);
    });

    it("rule 4 on the update: every field optional, the result checked as a whole", async () => {
      const field = await createRest({ entityType: "Customer", fieldKey: "plain", fieldLabel: "Plain", fieldType: "string" });
      const res = await api.rest("PATCH", `/api/v1/custom-fields/${field.id}`, { token, body: { fieldType: "select" } });
      expect(res.status).toBe(400);
      expect(violationsOf(res.body)).toEqual(["uiConfig.options"]);
      expect(api.fields.rows.get(field.id)).toMatchObject({ fieldType: "STRING", version: 1 });
    });

    it("a fieldKey is lowercase letters and underscores", async () => {
      const res = await api.rest("POST", "/api/v1/custom-fields", { token, body: { ...tierBody, fieldKey: "Tier2" } });
      expect(res.status).toBe(400);
      expect(violationsOf(res.body)).toEqual(["fieldKey"]);
    });

    it("an enum in neither documented casing names its field", async () => {
      const res = await api.rest("POST", "/api/v1/custom-fields", { token, body: { ...tierBody, fieldType: "Select" } });
      expect(res.status).toBe(400);
      expect(violationsOf(res.body)).toEqual(["fieldType"]);
    });
  });
});

describe("integration calls over the JSON API", () => {
  beforeEach(async () => {
    await createRest(tierBody);
    await createRest({ entityType: "Customer", fieldKey: "score", fieldLabel: "Score", fieldType: "number", validation: { min: 0, max: 100 } });
    await createRest({ entityType: "Customer", fieldKey: "since", fieldLabel: "Since", fieldType: "date", isRequired: true });
  });

  it("refuses a create's values with one violation per field", async () => {
    const res = await api.rest("POST", "/api/v1/custom-fields/Customer:resolve", { token, body: { customFields: { score: 200, nope: 1 } } });
    expect(res.status).toBe(400);
    expect(reasonOf(res.body)).toBe("CUSTOM_FIELD_VALIDATION_FAILED");
    expect(violationsOf(res.body).sort()).toEqual(["customFields.nope", "customFields.score", "customFields.since"]);
  });

  it("validates only the supplied values for an update", async () => {
    const ok = await api.rest("POST", "/api/v1/custom-fields/Customer:validate", { token, body: { customFields: { score: "7" } } });
    expect(ok.status).toBe(200);
    expect(ok.body.customFields).toEqual({ score: 7 });
    const bad = await api.rest("POST", "/api/v1/custom-fields/Customer:validate", { token, body: { customFields: { tier: "platinum" } } });
    expect(bad.status).toBe(400);
    expect(reasonOf(bad.body)).toBe("CUSTOM_FIELD_VALIDATION_FAILED");
    expect(violationsOf(bad.body)).toEqual(["customFields.tier"]);
  });

  it("parses filters into typed clauses, refusing unknown keys and operators", async () => {
    const res = await api.rest("POST", "/api/v1/custom-fields/Customer:parse-filters", {
      token,
      body: { query: { tier__in: "gold,silver", score__between: "1,5", since__isnull: "false" } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.filter.clauses).toEqual([
      { fieldKey: "tier", fieldType: "select", operator: "in", values: ["gold", "silver"] },
      { fieldKey: "score", fieldType: "number", operator: "between", values: [1, 5] },
      { fieldKey: "since", fieldType: "date", operator: "isnull", values: [false] },
    ]);
    const unknownKey = await api.rest("POST", "/api/v1/custom-fields/Customer:parse-filters", { token, body: { query: { color: "red" } } });
    expect([unknownKey.status, reasonOf(unknownKey.body)]).toEqual([400, "UNKNOWN_FILTER_FIELD"]);
    const unknownOp = await api.rest("POST", "/api/v1/custom-fields/Customer:parse-filters", { token, body: { query: { score__near: "3" } } });
    expect([unknownOp.status, reasonOf(unknownOp.body)]).toEqual([400, "UNKNOWN_FILTER_OPERATOR"]);
  });
});

describe("definitions and integration calls over a typed client", () => {
  it("creates, lists, updates (with and without a mask), deletes and reports stats", async () => {
    const fields = api.client(CustomFieldsService, token);
    const { fieldDefinition: created } = await fields.createFieldDefinition({
      entityType: "Customer",
      fieldKey: "score",
      fieldLabel: "Score",
      fieldType: "NUMBER",
      description: "points",
      validation: { min: 0 },
    });
    expect(created).toMatchObject({ fieldType: "number", defaultStrategy: "static", version: 1 });

    // No mask: what is set is given; unset fields stay.
    const first = await fields.updateFieldDefinition({ id: created!.id, fieldLabel: "Points", expectedVersion: 1 });
    expect(first.fieldDefinition).toMatchObject({ fieldLabel: "Points", description: "points", version: 2 });
    // A mask naming an unset field clears it; a set field outside the mask is ignored.
    const second = await fields.updateFieldDefinition({
      id: created!.id,
      updateMask: create(FieldMaskSchema, { paths: ["description", "display_order"] }),
      displayOrder: 5,
      fieldLabel: "not in the mask",
    });
    expect(second.fieldDefinition).toMatchObject({ fieldLabel: "Points", displayOrder: 5, version: 3 });
    expect(second.fieldDefinition?.description).toBeUndefined();

    const listed = await fields.listFieldDefinitions({ entityType: "Customer" });
    expect(listed.fieldDefinitions.map((d) => [d.fieldKey, d.version])).toEqual([["score", 3]]);
    await fields.listFieldDefinitions({ entityType: "Customer" });
    expect(await fields.getCacheStats({})).toMatchObject({ cachedEntityTypes: ["Customer"], keyCount: 1, hits: 1n, misses: 1n });

    await fields.deleteFieldDefinition({ id: created!.id });
    expect((await fields.listFieldDefinitions({ entityType: "Customer" })).fieldDefinitions).toEqual([]);
    expect((await fields.getCacheStats({})).misses).toBe(2n);
  });

  it("maps refusals to codes with reasons and field violations", async () => {
    const fields = api.client(CustomFieldsService, token);
    const base = { entityType: "Customer", fieldKey: "tier", fieldLabel: "Tier", fieldType: "select", uiConfig: { options: [{ label: "A", value: "a" }] } };
    const { fieldDefinition } = await fields.createFieldDefinition(base);

    expect(await refusalOf(fields.createFieldDefinition(base))).toMatchObject({ code: "AlreadyExists", reason: "FIELD_KEY_EXISTS" });
    expect(await refusalOf(fields.createFieldDefinition({ ...base, fieldKey: "other", uiConfig: { options: [] } }))).toEqual({
      code: "InvalidArgument",
      reason: "VALIDATION_FAILED",
      fields: ["uiConfig.options"],
    });
    expect(await refusalOf(fields.updateFieldDefinition({ id: fieldDefinition!.id, expectedVersion: 9, fieldLabel: "x" }))).toMatchObject({
      code: "Aborted",
      reason: "VERSION_CONFLICT",
    });
    expect((await fields.listFieldDefinitions({ entityType: "Customer" })).fieldDefinitions[0]).toMatchObject({ fieldLabel: "Tier", version: 1 });

    const other = api.client(CustomFieldsService, await api.token("t2"));
    expect(await refusalOf(other.deleteFieldDefinition({ id: fieldDefinition!.id }))).toMatchObject({ code: "NotFound", reason: "FIELD_DEFINITION_NOT_FOUND" });
    const reader = api.client(CustomFieldsService, await api.token("t2", { perms: ["custom_field_definition:READ"] }));
    expect(await refusalOf(reader.updateFieldDefinition({ id: fieldDefinition!.id }))).toMatchObject({ code: "PermissionDenied", reason: "PERMISSION_DENIED" });
  });

  it("resolves with the caller from the token (a forged context user is ignored), validates and parses filters", async () => {
    const fields = api.client(CustomFieldsService, token);
    await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "level", fieldLabel: "Level", fieldType: "string", defaultValue: "basic" });
    await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "score", fieldLabel: "Score", fieldType: "number" });
    await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "who", fieldLabel: "Who", fieldType: "computed", computedFormula: "user.id" });

    const resolved = await fields.resolveValuesForCreate({ entityType: "Customer", customFields: { score: 3 }, context: { user: { id: "forged" } } });
    expect(resolved.customFields).toEqual({ level: "basic", score: 3, who: "alice" });
    const validated = await fields.validateValuesForUpdate({ entityType: "Customer", customFields: { score: "4" } });
    expect(validated.customFields).toEqual({ score: 4 });
    expect(await refusalOf(fields.validateValuesForUpdate({ entityType: "Customer", customFields: { score: "many" } }))).toEqual({
      code: "InvalidArgument",
      reason: "CUSTOM_FIELD_VALIDATION_FAILED",
      fields: ["customFields.score"],
    });

    const parsed = await fields.parseFilters({ entityType: "Customer", query: { score__gt: "2", level: "basic" } });
    expect(parsed.filter?.clauses.map((c) => [c.fieldKey, c.fieldType, c.operator])).toEqual([
      ["score", "number", "gt"],
      ["level", "string", "eq"],
    ]);
    expect(await refusalOf(fields.parseFilters({ entityType: "Customer", query: { level__like: "x" } }))).toMatchObject({
      code: "InvalidArgument",
      reason: "UNKNOWN_FILTER_OPERATOR",
    });
  });
});

describe("ExplainValuesForCreate", () => {
  const goldDiscount = {
    entityType: "Customer",
    fieldKey: "discount",
    fieldLabel: "Discount",
    fieldType: "number",
    defaultStrategy: "RULE_BASED",
    defaultValue: "0",
    defaultRules: [
      {
        name: "gold-sales",
        priority: 1,
        when: {
          operator: "AND",
          conditions: [
            { field: "entity.customFields.tier", operator: "equals", value: "gold" },
            { field: "user.role", operator: "equals", value: "sales" },
          ],
        },
        then: { defaultValue: 15 },
      },
    ],
    displayOrder: 3,
  };
  const points = {
    entityType: "Customer",
    fieldKey: "points",
    fieldLabel: "Points",
    fieldType: "number",
    defaultStrategy: "COMPUTED",
    computedFormula: "discount * 2",
    validation: { max: 10 },
    displayOrder: 4,
  };

  beforeEach(async () => {
    await createRest({ ...tierBody, defaultValue: "gold" });
    await createRest(goldDiscount);
    await createRest(points);
  });

  it("answers where each value came from, with the rule's conditions and the formula's inputs, and reports violations as data", async () => {
    const sales = await api.token("t1", { user: "bob", profile: { role: "sales" } });
    const res = await api.rest("POST", "/api/v1/custom-fields/Customer:explain", { token: sales, body: { customFields: { points: 1 } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.reason).toBe("CUSTOM_FIELD_VALIDATION_FAILED");
    expect(res.body.violations).toEqual([{ field: "customFields.points", description: "must be at most 10" }]);
    expect(res.body.customFields).toEqual({ tier: "gold", discount: 15 });
    const [tier, discount, computed] = res.body.fields;
    expect(tier).toMatchObject({ fieldKey: "tier", source: "STATIC_DEFAULT", value: "gold", constraints: [{ name: "type", passed: true }], userValueIgnored: false });
    expect(discount).toMatchObject({
      fieldKey: "discount",
      source: "RULE",
      value: 15,
      defaultRule: {
        name: "gold-sales",
        matched: true,
        conditions: [
          { field: "entity.customFields.tier", operator: "equals", expected: "gold", actual: "gold", held: true },
          { field: "user.role", operator: "equals", expected: "sales", actual: "sales", held: true },
        ],
      },
    });
    expect(computed).toEqual({
      fieldKey: "points",
      source: "COMPUTED",
      formula: { source: "discount * 2", inputs: { discount: 15 } },
      constraints: [{ name: "type", passed: true }, { name: "max", passed: false }],
      violation: { field: "customFields.points", description: "must be at most 10" },
      userValueIgnored: true,
    });
    // The resolve of the same inputs refuses with the same violation.
    const resolve = await api.rest("POST", "/api/v1/custom-fields/Customer:resolve", { token: sales, body: { customFields: {} } });
    expect([resolve.status, reasonOf(resolve.body), violationsOf(resolve.body)]).toEqual([400, "CUSTOM_FIELD_VALIDATION_FAILED", ["customFields.points"]]);
  });

  it("takes user.* from the token's claims, and answers an accepted create with no reason", async () => {
    const fields = api.client(CustomFieldsService, await api.token("t1", { user: "carol", profile: { name: "Carol", email: "c@example.com", role: "viewer", branch_id: "b-7" } }));
    await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "owner", fieldLabel: "Owner", fieldType: "computed", computedFormula: "user.name + ' <' + user.email + '> ' + user.branchId + ' ' + user.id", displayOrder: 5 });
    const explained = await fields.explainValuesForCreate({ entityType: "Customer", customFields: {}, context: { user: { name: "forged" } } });
    expect(explained.reason).toBe("");
    expect(explained.violations).toEqual([]);
    expect(explained.customFields).toEqual({ tier: "gold", discount: 0, points: 0, owner: "Carol <c@example.com> b-7 carol" });
    const discount = explained.fields.find((f) => f.fieldKey === "discount");
    expect(discount?.source).toBe("STATIC_DEFAULT");
    const resolved = await fields.resolveValuesForCreate({ entityType: "Customer", customFields: {} });
    expect(resolved.customFields).toEqual(explained.customFields);
  });

  it("needs the read permission like ResolveValuesForCreate", async () => {
    const writer = api.client(CustomFieldsService, await api.token("t1", { perms: ["custom_field_definition:CREATE"] }));
    expect(await refusalOf(writer.explainValuesForCreate({ entityType: "Customer" }))).toMatchObject({ code: "PermissionDenied", reason: "PERMISSION_DENIED" });
  });
});
