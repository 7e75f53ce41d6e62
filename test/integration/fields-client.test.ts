/**
 * The offline fields client against the running server over a real Connect transport (fetch, as
 * in a browser): a sync through the database-backed store and cache, offline evaluation equal to
 * the server's ResolveValuesForCreate, and revalidation that answers not_modified until a write.
 */
import { describe, expect, it } from "vitest";
import { createFieldsClient, memoryStore, type FieldsStore } from "@files-and-fields/client/fields-client";
import { AppError } from "../../src/domain/errors.js";
import { apiUrl, rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { violationsOf } from "../support/errors.js";

const definitions = [
  { entityType: "Customer", fieldKey: "tier", fieldLabel: "Tier", fieldType: "select", uiConfig: { options: [{ label: "Gold", value: "gold" }, { label: "Silver", value: "silver" }] }, defaultValue: "silver", displayOrder: 1 },
  { entityType: "Customer", fieldKey: "credit", fieldLabel: "Credit", fieldType: "number", validation: { min: 0, max: 1000 }, displayOrder: 2 },
  {
    entityType: "Customer",
    fieldKey: "region",
    fieldLabel: "Region",
    fieldType: "string",
    defaultStrategy: "rule-based",
    defaultRules: [{ name: "eu", priority: 1, when: { operator: "AND", conditions: [{ field: "entity.country", operator: "in", value: ["DE", "FR"] }] }, then: { defaultValue: "EU" }, else: { defaultValue: "OTHER" } }],
    displayOrder: 3,
  },
  { entityType: "Customer", fieldKey: "limit", fieldLabel: "Limit", fieldType: "computed", computedFormula: "credit * 2", displayOrder: 4 },
];

const entities = [
  { customFields: { credit: 100 }, context: { entity: { country: "DE" } } },
  { customFields: { credit: "250", tier: "gold" }, context: { entity: { country: "US" } } },
  { customFields: { credit: 5000 }, context: { entity: { country: "FR" } } },
  { customFields: { tier: "bronze", unknown: 1 }, context: {} },
];

async function outcome(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return { values: await call() };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { refused: true, fields: error.violations.map((v) => v.field) };
  }
}

describe("fields client against the server", () => {
  it("syncs, evaluates offline as the server resolves, and revalidates cheaply until a write", async () => {
    const token = await tokenFor(uniqueTenant("fc"), { user: "alice" });
    for (const body of definitions) {
      const res = await rest("POST", "/api/v1/custom-fields", { token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const store: FieldsStore = memoryStore();
    const client = createFieldsClient({ baseUrl: apiUrl(), token, store, user: { id: "alice" }, namespace: "tenant-a" });
    const first = await client.sync("Customer");
    expect(first.changed).toBe(true);

    for (const entity of entities) {
      const server = await rest("POST", "/api/v1/custom-fields/Customer:resolve", { token, body: entity });
      const offline = await outcome(() => client.resolveForCreate("Customer", entity.customFields, entity.context));
      if (server.status === 200) {
        expect(offline).toEqual({ values: server.body.customFields });
      } else {
        expect(server.status).toBe(400);
        expect(offline).toEqual({ refused: true, fields: violationsOf(server.body) });
      }
    }

    // Nothing changed: the server answers not_modified and the stored copy stands.
    expect(await client.sync("Customer")).toEqual({ version: first.version, changed: false, offline: false });
    const raw = await rest("GET", `/api/v1/custom-fields/Customer:sync?knownVersion=${encodeURIComponent(first.version)}`, { token });
    expect(raw.body).toMatchObject({ version: first.version, notModified: true });
    expect(raw.body.definitions ?? []).toEqual([]);

    // A delete (through the database and the definition cache) changes the version.
    const list = await rest("GET", "/api/v1/custom-fields/Customer", { token });
    const region = (list.body.fieldDefinitions as { id: string; fieldKey: string }[]).find((d) => d.fieldKey === "region")!;
    expect((await rest("DELETE", `/api/v1/custom-fields/${region.id}`, { token })).status).toBe(200);
    const after = await client.sync("Customer");
    expect(after.changed).toBe(true);
    expect(after.version).not.toBe(first.version);
    expect(await client.resolveForCreate("Customer", { credit: 1 }, { entity: { country: "DE" } })).toEqual({ tier: "silver", credit: 1, limit: 2 });
  });
});
