/**
 * Products, the second entity module, end to end against the real server and database: its
 * custom fields are defined under "Product" and reach it only through the shared integration
 * surface (resolve on create, validate on update, parse filters on list, the generic JSONB store
 * and the index builder). Refusals and update masks in memory: test/unit/rpc/products-service.test.ts.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../src/adapters/postgres/orm.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { createOk, listedValues, tenantWithDefinitions } from "../support/custom-field-entities.js";
import { waitForValidIndexes } from "../support/custom-field-indexes.js";
import { reasonOf } from "../support/errors.js";

let orm: MikroORM;
beforeAll(async () => {
  orm = await openDatabase(inject("stackEnv").DATABASE_URL, 2);
});
afterAll(async () => {
  await orm?.close();
});

const PRODUCT_FIELDS = [
  // Indexed: the worker builds products_cf_num_weight for its range filters.
  { fieldKey: "weight", fieldLabel: "Weight (g)", fieldType: "number", indexed: true, validation: { min: 1, max: 100000 } },
  { fieldKey: "color", fieldLabel: "Color", fieldType: "string", defaultValue: "black" },
  {
    fieldKey: "band",
    fieldLabel: "Price band",
    fieldType: "string",
    defaultStrategy: "rule-based",
    defaultRules: [
      { name: "premium", priority: 1, when: { operator: "AND", conditions: [{ field: "entity.priceCents", operator: "greaterThan", value: 10000 }] }, then: { defaultValue: "premium" }, else: { defaultValue: "standard" } },
    ],
  },
];

async function shopWithProductFields() {
  const { tenant, admin } = await tenantWithDefinitions("pr", "Product", PRODUCT_FIELDS);
  return { tenant, token: admin };
}

const newProduct = (token: string, body: Record<string, unknown>) => createOk("products", "product", token, body);
const skusWhere = (token: string, query: string) => listedValues("products", "sku", token, query);

describe("products over the JSON API", () => {
  it("creates with static and rule-based defaults resolved from the product's own columns", async () => {
    const { token } = await shopWithProductFields();
    const cheap = await newProduct(token, { sku: "PEN", name: "Pen", priceCents: "150", customFields: { weight: 12 } });
    expect(cheap).toMatchObject({ priceCents: "150", version: 1, customFields: { weight: 12, color: "black", band: "standard" } });
    const dear = await newProduct(token, { sku: "WATCH", name: "Watch", priceCents: "25000", customFields: { color: "gold" } });
    expect(dear.customFields).toEqual({ color: "gold", band: "premium" });
    const read = await rest("GET", `/api/v1/products/${dear.id}`, { token });
    expect(read.body.product).toMatchObject({ sku: "WATCH", name: "Watch", customFields: { color: "gold", band: "premium" } });
  });

  it("validates only the supplied keys on update, merges them, and checks the expected version", async () => {
    const { token } = await shopWithProductFields();
    const product = await newProduct(token, { sku: "CUP", name: "Cup", priceCents: "800" });
    const invalid = await rest("PATCH", `/api/v1/products/${product.id}`, { token, body: { customFields: { weight: 0 } } });
    expect([invalid.status, reasonOf(invalid.body)]).toEqual([400, "CUSTOM_FIELD_VALIDATION_FAILED"]);
    const updated = await rest("PATCH", `/api/v1/products/${product.id}`, { token, body: { expectedVersion: 1, name: "Big cup", customFields: { weight: 350 } } });
    expect(updated.body.product).toMatchObject({ name: "Big cup", version: 2, customFields: { weight: 350, color: "black", band: "standard" } });
    const stale = await rest("PATCH", `/api/v1/products/${product.id}`, { token, body: { expectedVersion: 1, priceCents: "1" } });
    expect([stale.status, reasonOf(stale.body)]).toEqual([409, "VERSION_CONFLICT"]);
  });

  it("filters by an indexed and a non-indexed field, and the sku, with AND; the index gets built", async () => {
    const { token } = await shopWithProductFields();
    await newProduct(token, { sku: "A", name: "A", priceCents: "100", customFields: { weight: 100, color: "red" } });
    await newProduct(token, { sku: "B", name: "B", priceCents: "100", customFields: { weight: 500, color: "red" } });
    await newProduct(token, { sku: "C", name: "C", priceCents: "100", customFields: { weight: 900, color: "blue" } });
    expect(await skusWhere(token, "weight__gte=400")).toEqual(["B", "C"]);
    expect(await skusWhere(token, "color__icontains=RE")).toEqual(["A", "B"]);
    expect(await skusWhere(token, "weight__between=50,600&color=red")).toEqual(["A", "B"]);
    expect(await skusWhere(token, "sku=C&color=blue")).toEqual(["C"]);
    const unknown = await rest("GET", "/api/v1/products?tier=gold", { token });
    expect([unknown.status, reasonOf(unknown.body)]).toEqual([400, "UNKNOWN_FILTER_FIELD"]);
    // The index builder knows the products table: the Product definition's index gets built.
    await waitForValidIndexes(orm, ["products_cf_num_weight"]);
  });

  it("keeps tenants apart: definitions, reads, updates and lists", async () => {
    const mine = await shopWithProductFields();
    const product = await newProduct(mine.token, { sku: "MINE", name: "Mine", priceCents: "1" });
    const other = await tokenFor(uniqueTenant("pr"));
    const read = await rest("GET", `/api/v1/products/${product.id}`, { token: other });
    expect([read.status, reasonOf(read.body)]).toEqual([404, "PRODUCT_NOT_FOUND"]);
    const write = await rest("PATCH", `/api/v1/products/${product.id}`, { token: other, body: { name: "Theirs" } });
    expect([write.status, reasonOf(write.body)]).toEqual([404, "PRODUCT_NOT_FOUND"]);
    expect((await rest("GET", "/api/v1/products", { token: other })).body.products).toEqual([]);
    // The other tenant has no Product fields: the first tenant's field key is unknown there.
    const filter = await rest("GET", "/api/v1/products?color=black", { token: other });
    expect([filter.status, reasonOf(filter.body)]).toEqual([400, "UNKNOWN_FILTER_FIELD"]);
    const created = await newProduct(other, { sku: "MINE", name: "Same sku, other tenant", priceCents: "2" });
    expect(created.customFields).toEqual({});
  });
});
