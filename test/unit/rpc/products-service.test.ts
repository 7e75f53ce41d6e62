/**
 * The Products service, the second entity module on the custom field integration calls, at its
 * contract in memory: its fields are defined under "Product" (not "Customer"), its refusals, and
 * which fields an update writes. Filters against PostgreSQL: test/integration/products.test.ts.
 */
import { create } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { beforeEach, describe, expect, it } from "vitest";
import { CustomFieldsService } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { ProductsService } from "@files-and-fields/client/gen/products/v1/products_service_pb.js";
import { reasonOf, refusalOf, violationsOf } from "../../support/errors.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

const MISSING = "0191e1c6-0000-7000-8000-0000000000aa";

const PRODUCT_FIELDS = [
  { entityType: "Product", fieldKey: "color", fieldLabel: "Color", fieldType: "string", defaultValue: "black" },
  { entityType: "Product", fieldKey: "weight", fieldLabel: "Weight (g)", fieldType: "number", validation: { min: 1 } },
  // A Customer field of the same key must not leak into products.
  { entityType: "Customer", fieldKey: "color", fieldLabel: "Color", fieldType: "number" },
];

/** A fresh API whose tenant "shop" has the fields above, and that tenant's admin token. */
async function shop(): Promise<[InMemoryApi, string]> {
  const fresh = inMemoryApi();
  const token = await fresh.token("shop");
  for (const field of PRODUCT_FIELDS) await fresh.client(CustomFieldsService, token).createFieldDefinition(field);
  return [fresh, token];
}

let api: InMemoryApi;
let admin: string;
beforeEach(async () => void ([api, admin] = await shop()));

describe("products on the custom field calls", () => {
  it("resolves the Product definitions' defaults on create and reads the product back by id", async () => {
    const created = await api.rest("POST", "/api/v1/products", { token: admin, body: { sku: "MUG-1", name: "Mug", priceCents: "1250" } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.product).toMatchObject({ sku: "MUG-1", name: "Mug", priceCents: "1250", version: 1, customFields: { color: "black" } });
    const read = await api.client(ProductsService, admin).getProduct({ id: created.body.product.id });
    expect(read.product).toMatchObject({ sku: "MUG-1", priceCents: 1250n, customFields: { color: "black" } });
  });

  it("refuses invalid values, unknown ids, other tenants, stale versions and missing permissions", async () => {
    const products = api.client(ProductsService, admin);
    expect(await refusalOf(products.createProduct({ sku: "A", name: "A", customFields: { weight: 0 } }))).toEqual({
      code: "InvalidArgument",
      reason: "CUSTOM_FIELD_VALIDATION_FAILED",
      fields: ["customFields.weight"],
    });
    expect(await refusalOf(products.createProduct({ sku: "bad sku", name: "A" }))).toMatchObject({ code: "InvalidArgument", reason: "VALIDATION_FAILED" });
    expect(await refusalOf(products.getProduct({ id: MISSING }))).toMatchObject({ code: "NotFound", reason: "PRODUCT_NOT_FOUND" });
    const { product } = await products.createProduct({ sku: "A", name: "A", priceCents: 5n });
    const elsewhere = await api.rest("GET", `/api/v1/products/${product!.id}`, { token: await api.token("other-shop") });
    expect([elsewhere.status, reasonOf(elsewhere.body)]).toEqual([404, "PRODUCT_NOT_FOUND"]);
    expect(await refusalOf(products.updateProduct({ id: product!.id, expectedVersion: 2, name: "B" }))).toMatchObject({ code: "Aborted", reason: "VERSION_CONFLICT" });
    const reader = await api.token("shop", { perms: ["product:READ"] });
    const denied = await api.rest("PATCH", `/api/v1/products/${product!.id}`, { token: reader, body: { name: "C" } });
    expect([denied.status, reasonOf(denied.body)]).toEqual([403, "PERMISSION_DENIED"]);
    expect((await api.rest("GET", "/api/v1/products", { token: reader })).body.products).toHaveLength(1);
    expect(api.products.rows.get(product!.id)).toMatchObject({ name: "A", version: 1 });
  });
});

describe("product updates", () => {
  it("validates only the supplied custom fields, merges them, and keeps the sku", async () => {
    const { product } = await api.client(ProductsService, admin).createProduct({ sku: "LAMP", name: "Lamp", priceCents: 900n, customFields: { weight: 300 } });
    const bad = await api.rest("PATCH", `/api/v1/products/${product!.id}`, { token: admin, body: { customFields: { weight: -5 } } });
    expect([bad.status, reasonOf(bad.body)]).toEqual([400, "CUSTOM_FIELD_VALIDATION_FAILED"]);
    const ok = await api.rest("PATCH", `/api/v1/products/${product!.id}`, { token: admin, body: { priceCents: "950", customFields: { color: "red" } } });
    expect(ok.body.product).toMatchObject({ sku: "LAMP", name: "Lamp", priceCents: "950", version: 2, customFields: { color: "red", weight: 300 } });
  });

  it("writes only the masked fields, and refuses masking the sku or clearing the price", async () => {
    const products = api.client(ProductsService, admin);
    const { product } = await products.createProduct({ sku: "DESK", name: "Desk", priceCents: 10000n });
    const masked = await products.updateProduct({ id: product!.id, updateMask: create(FieldMaskSchema, { paths: ["price_cents"] }), name: "Table", priceCents: 12000n });
    expect(masked.product).toMatchObject({ name: "Desk", priceCents: 12000n, version: 2 });
    expect(await refusalOf(products.updateProduct({ id: product!.id, updateMask: create(FieldMaskSchema, { paths: ["sku"] }), }))).toEqual({
      code: "InvalidArgument",
      reason: "VALIDATION_FAILED",
      fields: ["updateMask"],
    });
    const cleared = await products.updateProduct({ id: product!.id, updateMask: create(FieldMaskSchema, { paths: ["price_cents"] }) }).catch((e: Error) => e);
    expect(violationsOf(cleared as Error)).toEqual(["price_cents"]);
  });

  it("hands the store the sku as an exact filter and the Product fields' typed clauses", async () => {
    const res = await api.rest("GET", "/api/v1/products?sku=DESK&weight__gte=100", { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(api.products.lastQuery).toEqual({ sku: "DESK", customFilter: { clauses: [{ fieldKey: "weight", fieldType: "NUMBER", operator: "gte", values: [100] }] } });
    const unknown = await api.rest("GET", "/api/v1/products?tier__eq=gold", { token: admin });
    expect([unknown.status, reasonOf(unknown.body)]).toEqual([400, "UNKNOWN_FILTER_FIELD"]);
  });
});
