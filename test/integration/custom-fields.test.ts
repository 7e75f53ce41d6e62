/**
 * The custom field definition service end to end, over the JSON API and over gRPC, against the
 * real server and database: definition CRUD, the schema rules, errors, audit, the cache and its
 * invalidation, and the three integration calls other modules make.
 */
import { create } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { BadRequestSchema, ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { openDatabase } from "../../src/adapters/postgres/orm.js";
import { clientsFor, rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { reasonOf, violationsOf } from "../support/error-body.js";

let orm: MikroORM;
beforeAll(async () => {
  orm = await openDatabase(inject("stackEnv").DATABASE_URL, 2);
});
afterAll(async () => {
  await orm?.close();
});

const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) => orm.em.fork().getConnection().execute<T[]>(query, params);



function connectFailure(error: unknown) {
  const e = ConnectError.from(error);
  return {
    code: e.code,
    reason: e.findDetails(ErrorInfoSchema)[0]?.reason,
    fields: e.findDetails(BadRequestSchema).flatMap((d) => d.fieldViolations.map((v) => v.field)),
  };
}

async function setup(perms?: string[]) {
  const tenant = uniqueTenant("cf");
  return { tenant, token: await tokenFor(tenant, { user: "alice", perms }) };
}

const tierBody = {
  entityType: "Customer",
  fieldKey: "tier",
  fieldLabel: "Tier",
  fieldType: "SELECT",
  uiConfig: { options: [{ label: "Gold", value: "gold" }, { label: "Silver", value: "silver" }] },
  defaultValue: "silver",
  displayOrder: 2,
};

async function createRest(token: string, body: Record<string, unknown>) {
  const res = await rest("POST", "/api/v1/custom-fields", { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.fieldDefinition;
}

describe("definitions over the JSON API", () => {
  it("creates a definition at version 1 and answers enums in kebab-case, accepting both input forms", async () => {
    const { tenant, token } = await setup();
    const tier = await createRest(token, tierBody);
    expect(tier).toMatchObject({
      tenantId: tenant,
      entityType: "Customer",
      fieldKey: "tier",
      fieldType: "select",
      defaultStrategy: "static",
      isActive: true,
      isRequired: false,
      version: 1,
    });
    expect(tier.id).toMatch(/^[a-z0-9]{20,32}$/);
    const rule = await createRest(token, {
      entityType: "Customer",
      fieldKey: "region",
      fieldLabel: "Region",
      fieldType: "string",
      defaultStrategy: "rule-based",
      defaultRules: [{ name: "german", priority: 1, when: { operator: "AND", conditions: [{ field: "entity.email", operator: "endsWith", value: ".de" }] }, then: { defaultValue: "EU" } }],
    });
    expect(rule.defaultStrategy).toBe("rule-based");
    expect(rule.defaultRules[0].then.defaultValue).toBe("EU");
    const [stored] = await sql<{ field_type: string; default_strategy: string }>(
      "select field_type, default_strategy from custom_field_definitions where id = ?",
      [rule.id],
    );
    expect(stored).toEqual({ field_type: "STRING", default_strategy: "RULE_BASED" });
  });

  it("lists the active definitions of one entity type by display order", async () => {
    const { token } = await setup();
    await createRest(token, tierBody);
    await createRest(token, { entityType: "Customer", fieldKey: "alpha", fieldLabel: "A", fieldType: "string", displayOrder: 1 });
    await createRest(token, { entityType: "Customer", fieldKey: "hidden", fieldLabel: "H", fieldType: "string", isActive: false });
    await createRest(token, { entityType: "Product", fieldKey: "sku", fieldLabel: "SKU", fieldType: "string" });
    const res = await rest("GET", "/api/v1/custom-fields/Customer", { token });
    expect(res.status).toBe(200);
    expect(res.body.fieldDefinitions.map((d: { fieldKey: string }) => d.fieldKey)).toEqual(["alpha", "tier"]);
  });

  it("updates only the fields in the body, increments the version, and clears a field sent as null", async () => {
    const { token } = await setup();
    const tier = await createRest(token, { ...tierBody, description: "membership level" });
    const res = await rest("PATCH", `/api/v1/custom-fields/${tier.id}`, {
      token,
      body: { fieldLabel: "Membership tier", description: null, expectedVersion: 1 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.fieldDefinition).toMatchObject({ fieldLabel: "Membership tier", version: 2, fieldType: "select", displayOrder: 2, defaultValue: "silver" });
    expect(res.body.fieldDefinition.description).toBeUndefined();
    expect(res.body.fieldDefinition.uiConfig.options).toHaveLength(2);
  });

  it("answers a stale expectedVersion with 409 aborted VERSION_CONFLICT and changes nothing", async () => {
    const { token } = await setup();
    const tier = await createRest(token, tierBody);
    await rest("PATCH", `/api/v1/custom-fields/${tier.id}`, { token, body: { fieldLabel: "Second" } });
    const res = await rest("PATCH", `/api/v1/custom-fields/${tier.id}`, { token, body: { fieldLabel: "Lost", expectedVersion: 1 } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("aborted");
    expect(reasonOf(res.body)).toBe("VERSION_CONFLICT");
    const list = await rest("GET", "/api/v1/custom-fields/Customer", { token });
    expect(list.body.fieldDefinitions[0]).toMatchObject({ fieldLabel: "Second", version: 2 });
  });

  it("refuses to change fieldKey or entityType, and accepts them unchanged", async () => {
    const { token } = await setup();
    const tier = await createRest(token, tierBody);
    const changed = await rest("PATCH", `/api/v1/custom-fields/${tier.id}`, { token, body: { fieldKey: "level" } });
    expect(changed.status).toBe(400);
    expect(reasonOf(changed.body)).toBe("FIELD_KEY_IMMUTABLE");
    expect(violationsOf(changed.body)).toEqual(["fieldKey"]);
    const same = await rest("PATCH", `/api/v1/custom-fields/${tier.id}`, { token, body: { fieldKey: "tier", entityType: "Customer", isRequired: true } });
    expect(same.status).toBe(200);
    expect(same.body.fieldDefinition).toMatchObject({ isRequired: true, version: 2 });
  });

  it("soft-deletes: gone from the list, deletedAt set, isActive false, version + 1; the key can be defined again", async () => {
    const { token } = await setup();
    const tier = await createRest(token, tierBody);
    const res = await rest("DELETE", `/api/v1/custom-fields/${tier.id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await rest("GET", "/api/v1/custom-fields/Customer", { token })).body.fieldDefinitions).toEqual([]);
    const [row] = await sql<{ deleted_at: Date | null; is_active: boolean; version: number }>(
      "select deleted_at, is_active, version from custom_field_definitions where id = ?",
      [tier.id],
    );
    expect(row.deleted_at).not.toBeNull();
    expect(row).toMatchObject({ is_active: false, version: 2 });
    expect((await rest("DELETE", `/api/v1/custom-fields/${tier.id}`, { token })).status).toBe(404);
    const again = await createRest(token, tierBody);
    expect(again.id).not.toBe(tier.id);
  });

  it("audits every change with who, when, old and new version and what changed", async () => {
    const { tenant, token } = await setup();
    const tier = await createRest(token, tierBody);
    await rest("PATCH", `/api/v1/custom-fields/${tier.id}`, { token, body: { fieldLabel: "Level", displayOrder: 2 } });
    await rest("DELETE", `/api/v1/custom-fields/${tier.id}`, { token });
    const rows = await sql<{ action: string; actor_id: string; request_id: string; old_version: number | null; new_version: number; changes: any; occurred_at: Date; tenant_id: string }>(
      "select * from custom_field_definition_audit where definition_id = ? order by occurred_at, id",
      [tier.id],
    );
    expect(rows.map((r) => [r.action, r.old_version, r.new_version])).toEqual([
      ["CREATED", null, 1],
      ["UPDATED", 1, 2],
      ["DELETED", 2, 3],
    ]);
    expect(rows.every((r) => r.actor_id === "alice" && r.tenant_id === tenant && r.request_id && r.occurred_at)).toBe(true);
    expect(rows[0].changes.new).toMatchObject({ fieldKey: "tier", fieldType: "SELECT" });
    // displayOrder was sent unchanged, so only the label is a change.
    expect(rows[1].changes).toEqual({ fieldLabel: { old: "Tier", new: "Level" } });
    expect(rows[2].changes.isActive).toEqual({ old: true, new: false });
  });

  describe("request-schema rules", () => {
    it("rules 1 and 2: a computed field needs a formula, a rule-based default needs rules, one violation per field", async () => {
      const { token } = await setup();
      const res = await rest("POST", "/api/v1/custom-fields", {
        token,
        body: { entityType: "Customer", fieldKey: "total", fieldLabel: "Total", fieldType: "computed", defaultStrategy: "RULE_BASED" },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("invalid_argument");
      expect(violationsOf(res.body).sort()).toEqual(["computedFormula", "defaultRules"]);
    });

    it("rule 3: a select field needs options", async () => {
      const { token } = await setup();
      const res = await rest("POST", "/api/v1/custom-fields", { token, body: { ...tierBody, uiConfig: { options: [] }, defaultValue: undefined } });
      expect(res.status).toBe(400);
      expect(violationsOf(res.body)).toEqual(["uiConfig.options"]);
    });

    it("rule 4 on the update: every field optional, the result checked as a whole", async () => {
      const { token } = await setup();
      const field = await createRest(token, { entityType: "Customer", fieldKey: "plain", fieldLabel: "Plain", fieldType: "string" });
      const res = await rest("PATCH", `/api/v1/custom-fields/${field.id}`, { token, body: { fieldType: "select" } });
      expect(res.status).toBe(400);
      expect(violationsOf(res.body)).toEqual(["uiConfig.options"]);
    });

    it("a fieldKey is lowercase letters and underscores", async () => {
      const { token } = await setup();
      const res = await rest("POST", "/api/v1/custom-fields", { token, body: { ...tierBody, fieldKey: "Tier2" } });
      expect(res.status).toBe(400);
      expect(violationsOf(res.body)).toEqual(["fieldKey"]);
    });

    it("an enum in neither documented casing names its field", async () => {
      const { token } = await setup();
      const res = await rest("POST", "/api/v1/custom-fields", { token, body: { ...tierBody, fieldType: "Select" } });
      expect(res.status).toBe(400);
      expect(violationsOf(res.body)).toEqual(["fieldType"]);
    });
  });

  it("answers a duplicate key with 409 already_exists FIELD_KEY_EXISTS", async () => {
    const { token } = await setup();
    await createRest(token, tierBody);
    const res = await rest("POST", "/api/v1/custom-fields", { token, body: tierBody });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("already_exists");
    expect(reasonOf(res.body)).toBe("FIELD_KEY_EXISTS");
  });

  it("answers 403 without the permission of the route", async () => {
    const { token } = await setup(["custom_field_definition:READ"]);
    expect((await rest("POST", "/api/v1/custom-fields", { token, body: tierBody })).status).toBe(403);
    expect((await rest("DELETE", "/api/v1/custom-fields/abc", { token })).status).toBe(403);
    expect((await rest("GET", "/api/v1/custom-fields/Customer", { token })).status).toBe(200);
  });

  it("treats another tenant's definition as not found", async () => {
    const { token } = await setup();
    const tier = await createRest(token, tierBody);
    const other = await tokenFor(uniqueTenant("cf"));
    const update = await rest("PATCH", `/api/v1/custom-fields/${tier.id}`, { token: other, body: { fieldLabel: "x" } });
    expect(update.status).toBe(404);
    expect(reasonOf(update.body)).toBe("FIELD_DEFINITION_NOT_FOUND");
    expect((await rest("DELETE", `/api/v1/custom-fields/${tier.id}`, { token: other })).status).toBe(404);
    expect((await rest("GET", "/api/v1/custom-fields/Customer", { token: other })).body.fieldDefinitions).toEqual([]);
  });

  it("caches a list, counts the hit, and serves the new version right after an update", async () => {
    const { token } = await setup();
    const tier = await createRest(token, tierBody);
    const stats = async () => (await rest("GET", "/api/v1/custom-fields/meta/stats", { token })).body;
    expect(await stats()).toEqual({ cachedEntityTypes: [], keyCount: 0, hits: "0", misses: "0" });
    await rest("GET", "/api/v1/custom-fields/Customer", { token });
    await rest("GET", "/api/v1/custom-fields/Customer", { token });
    expect(await stats()).toEqual({ cachedEntityTypes: ["Customer"], keyCount: 1, hits: "1", misses: "1" });
    await rest("PATCH", `/api/v1/custom-fields/${tier.id}`, { token, body: { fieldLabel: "Level" } });
    expect((await stats()).cachedEntityTypes).toEqual([]);
    const list = await rest("GET", "/api/v1/custom-fields/Customer", { token });
    expect(list.body.fieldDefinitions[0]).toMatchObject({ fieldLabel: "Level", version: 2 });
    expect(await stats()).toEqual({ cachedEntityTypes: ["Customer"], keyCount: 1, hits: "1", misses: "2" });
    await rest("DELETE", `/api/v1/custom-fields/${tier.id}`, { token });
    expect((await rest("GET", "/api/v1/custom-fields/Customer", { token })).body.fieldDefinitions).toEqual([]);
    expect(await stats()).toMatchObject({ hits: "1", misses: "3" });
  });
});

describe("integration calls over the JSON API", () => {
  async function fieldsFor(token: string) {
    await createRest(token, tierBody);
    await createRest(token, {
      entityType: "Customer",
      fieldKey: "region",
      fieldLabel: "Region",
      fieldType: "string",
      defaultStrategy: "rule-based",
      defaultRules: [{ name: "german", priority: 1, when: { operator: "AND", conditions: [{ field: "entity.email", operator: "endsWith", value: ".de" }] }, then: { defaultValue: "EU" }, else: { defaultValue: "US" } }],
    });
    await createRest(token, { entityType: "Customer", fieldKey: "score", fieldLabel: "Score", fieldType: "number", validation: { min: 0, max: 100 } });
    await createRest(token, { entityType: "Customer", fieldKey: "double_score", fieldLabel: "2x", fieldType: "computed", computedFormula: "score * 2" });
    await createRest(token, { entityType: "Customer", fieldKey: "since", fieldLabel: "Since", fieldType: "date", isRequired: true });
  }

  it("resolves values for a create: static, rule-based and computed defaults, user values over them", async () => {
    const { token } = await setup();
    await fieldsFor(token);
    const res = await rest("POST", "/api/v1/custom-fields/Customer:resolve", {
      token,
      body: { customFields: { score: "21", since: "2024-02-03" }, context: { entity: { email: "a@b.de" } } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.customFields).toEqual({ tier: "silver", region: "EU", score: 21, double_score: 42, since: "2024-02-03" });
  });

  it("refuses a create's values with one violation per field", async () => {
    const { token } = await setup();
    await fieldsFor(token);
    const res = await rest("POST", "/api/v1/custom-fields/Customer:resolve", { token, body: { customFields: { score: 200, nope: 1 } } });
    expect(res.status).toBe(400);
    expect(reasonOf(res.body)).toBe("CUSTOM_FIELD_VALIDATION_FAILED");
    expect(violationsOf(res.body).sort()).toEqual(["customFields.nope", "customFields.score", "customFields.since"]);
  });

  it("validates only the supplied values for an update", async () => {
    const { token } = await setup();
    await fieldsFor(token);
    const ok = await rest("POST", "/api/v1/custom-fields/Customer:validate", { token, body: { customFields: { score: "7" } } });
    expect(ok.status).toBe(200);
    expect(ok.body.customFields).toEqual({ score: 7 });
    const bad = await rest("POST", "/api/v1/custom-fields/Customer:validate", { token, body: { customFields: { tier: "platinum" } } });
    expect(bad.status).toBe(400);
    expect(violationsOf(bad.body)).toEqual(["customFields.tier"]);
  });

  it("parses filters into typed clauses, refusing unknown keys and operators", async () => {
    const { token } = await setup();
    await fieldsFor(token);
    const res = await rest("POST", "/api/v1/custom-fields/Customer:parse-filters", {
      token,
      body: { query: { tier__in: "gold,silver", score__between: "1,5", since__isnull: "false" } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.filter.clauses).toEqual([
      { fieldKey: "tier", fieldType: "select", operator: "in", values: ["gold", "silver"] },
      { fieldKey: "score", fieldType: "number", operator: "between", values: [1, 5] },
      { fieldKey: "since", fieldType: "date", operator: "isnull", values: [false] },
    ]);
    const unknownKey = await rest("POST", "/api/v1/custom-fields/Customer:parse-filters", { token, body: { query: { color: "red" } } });
    expect(unknownKey.status).toBe(400);
    expect(reasonOf(unknownKey.body)).toBe("UNKNOWN_FILTER_FIELD");
    const unknownOp = await rest("POST", "/api/v1/custom-fields/Customer:parse-filters", { token, body: { query: { score__near: "3" } } });
    expect(unknownOp.status).toBe(400);
    expect(reasonOf(unknownOp.body)).toBe("UNKNOWN_FILTER_OPERATOR");
  });
});

describe("definitions and integration calls over gRPC", () => {
  it("creates, lists, updates (with and without a mask), deletes and reports stats", async () => {
    const { token } = await setup();
    const { fields } = clientsFor("grpc", token);
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
    // A mask naming an unset field clears it.
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
    const stats = await fields.getCacheStats({});
    expect(stats).toMatchObject({ cachedEntityTypes: ["Customer"], keyCount: 1, hits: 1n, misses: 1n });

    await fields.deleteFieldDefinition({ id: created!.id });
    expect((await fields.listFieldDefinitions({ entityType: "Customer" })).fieldDefinitions).toEqual([]);
    expect((await fields.getCacheStats({})).misses).toBe(2n);
  });

  it("maps errors to gRPC codes with reasons and field violations", async () => {
    const { token } = await setup();
    const { fields } = clientsFor("grpc", token);
    const base = { entityType: "Customer", fieldKey: "tier", fieldLabel: "Tier", fieldType: "select", uiConfig: { options: [{ label: "A", value: "a" }] } };
    const { fieldDefinition } = await fields.createFieldDefinition(base);

    expect(connectFailure(await fields.createFieldDefinition(base).catch((e) => e))).toMatchObject({ code: Code.AlreadyExists, reason: "FIELD_KEY_EXISTS" });
    expect(connectFailure(await fields.createFieldDefinition({ ...base, fieldKey: "other", uiConfig: { options: [] } }).catch((e) => e))).toMatchObject({
      code: Code.InvalidArgument,
      fields: ["uiConfig.options"],
    });
    const stale = connectFailure(await fields.updateFieldDefinition({ id: fieldDefinition!.id, expectedVersion: 9, fieldLabel: "x" }).catch((e) => e));
    expect(stale).toMatchObject({ code: Code.Aborted, reason: "VERSION_CONFLICT" });
    expect((await fields.listFieldDefinitions({ entityType: "Customer" })).fieldDefinitions[0]).toMatchObject({ fieldLabel: "Tier", version: 1 });

    const other = clientsFor("grpc", await tokenFor(uniqueTenant("cf"))).fields;
    expect(connectFailure(await other.deleteFieldDefinition({ id: fieldDefinition!.id }).catch((e) => e)).code).toBe(Code.NotFound);
    const reader = clientsFor("grpc", await tokenFor(uniqueTenant("cf"), { perms: ["custom_field_definition:READ"] })).fields;
    expect(connectFailure(await reader.updateFieldDefinition({ id: fieldDefinition!.id }).catch((e) => e)).code).toBe(Code.PermissionDenied);
  });

  it("resolves, validates and parses filters", async () => {
    const { token } = await setup();
    const { fields } = clientsFor("grpc", token);
    await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "level", fieldLabel: "Level", fieldType: "string", defaultValue: "basic" });
    await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "score", fieldLabel: "Score", fieldType: "number" });
    await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "who", fieldLabel: "Who", fieldType: "computed", computedFormula: "user.id" });

    const resolved = await fields.resolveValuesForCreate({ entityType: "Customer", customFields: { score: 3 }, context: { user: { id: "forged" } } });
    expect(resolved.customFields).toEqual({ level: "basic", score: 3, who: "alice" });
    const validated = await fields.validateValuesForUpdate({ entityType: "Customer", customFields: { score: "4" } });
    expect(validated.customFields).toEqual({ score: 4 });
    const invalid = connectFailure(await fields.validateValuesForUpdate({ entityType: "Customer", customFields: { score: "many" } }).catch((e) => e));
    expect(invalid).toMatchObject({ code: Code.InvalidArgument, reason: "CUSTOM_FIELD_VALIDATION_FAILED", fields: ["customFields.score"] });

    const parsed = await fields.parseFilters({ entityType: "Customer", query: { score__gt: "2", level: "basic" } });
    expect(parsed.filter?.clauses.map((c) => [c.fieldKey, c.fieldType, c.operator])).toEqual([
      ["score", "number", "gt"],
      ["level", "string", "eq"],
    ]);
    expect(connectFailure(await fields.parseFilters({ entityType: "Customer", query: { level__like: "x" } }).catch((e) => e))).toMatchObject({
      code: Code.InvalidArgument,
      reason: "UNKNOWN_FILTER_OPERATOR",
    });
  });
});
