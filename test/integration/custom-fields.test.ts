/**
 * The custom field definition service end to end, against the real server and database: what the
 * store adds to the contract (stored casing, display order, the version condition, the unique key,
 * soft deletes, audit rows), the cache and its invalidation, and a resolve through the whole
 * stack. The schema rules, refusals, permissions and update masks are specified in memory in
 * test/unit/rpc/custom-fields-service.test.ts.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../src/adapters/postgres/orm.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { reasonOf, violationsOf } from "../support/errors.js";

let orm: MikroORM;
beforeAll(async () => {
  orm = await openDatabase(inject("stackEnv").DATABASE_URL, 2);
});
afterAll(async () => {
  await orm?.close();
});

const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) => orm.em.fork().getConnection().execute<T[]>(query, params);

async function setup() {
  const tenant = uniqueTenant("cf");
  return { tenant, token: await tokenFor(tenant, { user: "alice" }) };
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

  it("answers a duplicate key with 409 already_exists FIELD_KEY_EXISTS", async () => {
    const { token } = await setup();
    await createRest(token, tierBody);
    const res = await rest("POST", "/api/v1/custom-fields", { token, body: tierBody });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("already_exists");
    expect(reasonOf(res.body)).toBe("FIELD_KEY_EXISTS");
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
});

describe("formula and pattern bounds over the JSON API", () => {
  it("answers FORMULA_LIMIT_EXCEEDED on the field when a resolve's formulas would build too large a text", async () => {
    const { tenant, token } = await setup();
    const thirty = (name: string) => Array.from({ length: 30 }, () => name).join(" + ");
    await createRest(token, { entityType: "Customer", fieldKey: "note", fieldLabel: "Note", fieldType: "string" });
    await createRest(token, { entityType: "Customer", fieldKey: "echo", fieldLabel: "Echo", fieldType: "computed", computedFormula: thirty("note") });
    await createRest(token, { entityType: "Customer", fieldKey: "echo_echo", fieldLabel: "Echo twice", fieldType: "computed", computedFormula: thirty("echo") });
    // A reader may resolve: the bound holds for the least privileged caller.
    const reader = await tokenFor(tenant, { perms: ["custom_field_definition:READ"] });
    const res = await rest("POST", "/api/v1/custom-fields/Customer:resolve", {
      token: reader,
      // The longest text the contract admits for one value (MAX_VALUE_TEXT_LENGTH).
      body: { customFields: { note: "x".repeat(10_000) } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(reasonOf(res.body)).toBe("FORMULA_LIMIT_EXCEEDED");
    expect(violationsOf(res.body)).toEqual(["customFields.echo"]);
    const small = await rest("POST", "/api/v1/custom-fields/Customer:resolve", { token: reader, body: { customFields: { note: "ab" } } });
    expect(small.status, JSON.stringify(small.body)).toBe(200);
    expect(small.body.customFields.echo).toBe("ab".repeat(30));
  });

  it("refuses a pattern too costly to compile when the definition is saved", async () => {
    const { token } = await setup();
    const res = await rest("POST", "/api/v1/custom-fields", {
      token,
      body: { entityType: "Customer", fieldKey: "name", fieldLabel: "Name", fieldType: "string", validation: { pattern: "^\\p{L}{20}$" } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(reasonOf(res.body)).toBe("UNSAFE_PATTERN");
    expect(violationsOf(res.body)).toEqual(["validation.pattern"]);
  });
});

describe("the organization profile, stored and in the rule context", () => {
  it("answers the default profile, stores an update in PostgreSQL, and resolve sees it as `organization`", async () => {
    const { tenant, token } = await setup();
    const initial = await rest("GET", "/api/v1/organization", { token });
    expect(initial.status, JSON.stringify(initial.body)).toBe(200);
    expect(initial.body.organization).toMatchObject({ id: tenant, slug: "", modules: [], version: 0 });

    const body = { slug: "acme", companyName: "Acme", companyAbbreviation: "ACM", modules: ["crm"], accountingType: "CASH", customFields: { region: "EU" } };
    const first = await rest("PATCH", "/api/v1/organization", { token, body });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await rest("PATCH", "/api/v1/organization", { token, body: { companyName: "Acme AG" } });
    expect(second.body.organization).toEqual({ id: tenant, ...body, companyName: "Acme AG", version: 2 });
    const [row] = await sql<{ modules: string[]; custom_fields: unknown }>("select modules, custom_fields from organization_profiles where tenant_id = ?", [tenant]);
    expect(row).toEqual({ modules: ["crm"], custom_fields: { region: "EU" } });

    await createRest(token, { entityType: "Customer", fieldKey: "prefix", fieldLabel: "Prefix", fieldType: "computed", computedFormula: "organization.companyAbbreviation" });
    const resolved = await rest("POST", "/api/v1/custom-fields/Customer:resolve", { token, body: { customFields: {}, context: { organization: { companyAbbreviation: "X" } } } });
    expect(resolved.body.customFields).toEqual({ prefix: "ACM" });
  });
});

describe("preview and pages of definitions through the stack", () => {
  it("previews a draft over the stored definitions without storing it, and pages the list", async () => {
    const { token } = await setup();
    for (const [key, order] of [["b", 1], ["a", 1], ["c", 0]] as const) {
      await createRest(token, { entityType: "Customer", fieldKey: key, fieldLabel: key, fieldType: "number", displayOrder: order, defaultValue: String(order + 1) });
    }
    const preview = await rest("POST", "/api/v1/custom-fields/Customer:preview", {
      token,
      body: { draft: { entityType: "Customer", fieldKey: "sum", fieldLabel: "Sum", fieldType: "computed", computedFormula: "a + b + c" }, customFields: { a: 10 } },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.customFields).toEqual({ a: 10, b: 2, c: 1, sum: 13 });

    const first = await rest("GET", "/api/v1/custom-fields/Customer?pageSize=2", { token });
    expect(first.body.fieldDefinitions.map((d: { fieldKey: string }) => d.fieldKey)).toEqual(["c", "a"]);
    const second = await rest("GET", `/api/v1/custom-fields/Customer?pageSize=2&pageToken=${first.body.nextPageToken}`, { token });
    expect(second.body.fieldDefinitions.map((d: { fieldKey: string }) => d.fieldKey)).toEqual(["b"]);
    expect(second.body.nextPageToken ?? "").toBe("");
  });
});

describe("explain through the stack", () => {
  it("explains a create over REST: a rule on a defaulted field, the token's role, a computed value over its max", async () => {
    const { tenant } = await setup();
    const token = await tokenFor(tenant, { user: "dora", profile: { role: "sales", name: "Dora" } });
    await createRest(token, { ...tierBody, defaultValue: "gold" });
    await createRest(token, {
      entityType: "Customer",
      fieldKey: "discount",
      fieldLabel: "Discount",
      fieldType: "number",
      defaultStrategy: "RULE_BASED",
      defaultRules: [
        {
          name: "gold-sales",
          priority: 1,
          when: { operator: "AND", conditions: [{ field: "entity.customFields.tier", operator: "equals", value: "gold" }, { field: "user.role", operator: "equals", value: "sales" }] },
          then: { defaultValue: 15 },
        },
      ],
      displayOrder: 3,
    });
    await createRest(token, { entityType: "Customer", fieldKey: "points", fieldLabel: "Points", fieldType: "number", defaultStrategy: "COMPUTED", computedFormula: "discount * 2", validation: { max: 10 }, displayOrder: 4 });

    const res = await rest("POST", "/api/v1/custom-fields/Customer:explain", { token, body: { customFields: {}, context: { entity: { name: "Acme" } } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.reason).toBe("CUSTOM_FIELD_VALIDATION_FAILED");
    expect(res.body.customFields).toEqual({ tier: "gold", discount: 15 });
    expect(res.body.fields.map((f: { fieldKey: string; source: string }) => [f.fieldKey, f.source])).toEqual([["tier", "STATIC_DEFAULT"], ["discount", "RULE"], ["points", "COMPUTED"]]);
    expect(res.body.fields[1].defaultRule.conditions.map((c: { actual: unknown; held: boolean }) => [c.actual, c.held])).toEqual([["gold", true], ["sales", true]]);
    expect(res.body.fields[2]).toMatchObject({ formula: { inputs: { discount: 15 } }, violation: { field: "customFields.points", description: "must be at most 10" } });

    const created = await rest("POST", "/api/v1/customers", { token, body: { name: "Acme", email: "acme@example.com" } });
    expect([created.status, reasonOf(created.body), violationsOf(created.body)]).toEqual([400, "CUSTOM_FIELD_VALIDATION_FAILED", ["customFields.points"]]);
  });
});
