/**
 * The reference Customers service at its contract, in memory: refusals and their codes, and which
 * fields an update writes (the body's keys over REST, the update mask or the set fields over a
 * typed client). Custom field filters compile to SQL and are tested in
 * test/integration/customers.test.ts; here only the typed filter handed to the store is seen.
 */
import { create } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { beforeEach, describe, expect, it } from "vitest";
import { CustomFieldsService } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { CustomersService } from "@files-and-fields/client/gen/customers/v1/customers_service_pb.js";
import { reasonOf, refusalOf, violationsOf } from "../../support/errors.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

let api: InMemoryApi;
let token: string;
beforeEach(async () => {
  api = inMemoryApi();
  token = await api.token("t1");
  const fields = api.client(CustomFieldsService, token);
  await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "tier", fieldLabel: "Tier", fieldType: "select", defaultValue: "bronze", uiConfig: { options: ["gold", "silver", "bronze"].map((v) => ({ label: v, value: v })) } });
  await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "score", fieldLabel: "Score", fieldType: "number", validation: { min: 0, max: 100 } });
});

describe("refusals", () => {
  it("maps not found, invalid values, a stale version, an unknown filter and a missing permission to their codes", async () => {
    const customers = api.client(CustomersService, token);
    expect(await refusalOf(customers.getCustomer({ id: "0191e1c6-0000-7000-8000-000000000000" }))).toMatchObject({ code: "NotFound", reason: "CUSTOMER_NOT_FOUND" });
    expect(await refusalOf(customers.createCustomer({ name: "A", email: "a@b.com", customFields: { score: -1 } }))).toEqual({
      code: "InvalidArgument",
      reason: "CUSTOM_FIELD_VALIDATION_FAILED",
      fields: ["customFields.score"],
    });
    const { customer } = await customers.createCustomer({ name: "A", email: "a@b.com" });
    expect(await refusalOf(customers.updateCustomer({ id: customer!.id, expectedVersion: 4, name: "B" }))).toMatchObject({ code: "Aborted", reason: "VERSION_CONFLICT" });
    expect(await refusalOf(customers.listCustomers({ filters: { score__approx: "1" } }))).toMatchObject({ code: "InvalidArgument", reason: "UNKNOWN_FILTER_OPERATOR" });
    const reader = api.client(CustomersService, await api.token("t1", { perms: ["customer:READ"] }));
    expect(await refusalOf(reader.updateCustomer({ id: customer!.id, name: "x" }))).toMatchObject({ code: "PermissionDenied", reason: "PERMISSION_DENIED" });
    expect(api.customers.rows.get(customer!.id)).toMatchObject({ name: "A", version: 1 });
  });

  it("answers 403 without the customer permission, and lets a reader list", async () => {
    const reader = await api.token("t1", { perms: ["customer:READ"] });
    const res = await api.rest("POST", "/api/v1/customers", { token: reader, body: { name: "A", email: "a@b.com" } });
    expect([res.status, reasonOf(res.body)]).toEqual([403, "PERMISSION_DENIED"]);
    expect((await api.rest("GET", "/api/v1/customers", { token: reader })).status).toBe(200);
    expect(api.customers.rows.size).toBe(0);
  });

  it("treats another tenant's customer as not found", async () => {
    const created = (await api.rest("POST", "/api/v1/customers", { token, body: { name: "Anna", email: "anna@example.com" } })).body.customer;
    const other = await api.rest("GET", `/api/v1/customers/${created.id}`, { token: await api.token("t2") });
    expect([other.status, reasonOf(other.body)]).toEqual([404, "CUSTOMER_NOT_FOUND"]);
  });
});

describe("which fields an update writes", () => {
  it("over REST, the body's keys: others keep their values, custom fields merge key by key", async () => {
    const created = (await api.rest("POST", "/api/v1/customers", { token, body: { name: "Anna", email: "anna@example.de", customFields: { score: 10 } } })).body.customer;
    const res = await api.rest("PATCH", `/api/v1/customers/${created.id}`, { token, body: { customFields: { tier: "gold" } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.customer).toMatchObject({ name: "Anna", email: "anna@example.de", version: 2, customFields: { tier: "gold", score: 10 } });
  });

  it("over a typed client, the set fields without a mask, only the masked ones with a mask", async () => {
    const customers = api.client(CustomersService, token);
    const { customer } = await customers.createCustomer({ name: "Anna", email: "anna@example.de", customFields: { score: 30 } });
    const unmasked = await customers.updateCustomer({ id: customer!.id, expectedVersion: 1, customFields: { tier: "gold" } });
    expect(unmasked.customer).toMatchObject({ name: "Anna", version: 2, customFields: { tier: "gold", score: 30 } });
    const masked = await customers.updateCustomer({
      id: customer!.id,
      updateMask: create(FieldMaskSchema, { paths: ["name"] }),
      name: "Anna M.",
      customFields: { tier: "silver" },
    });
    expect(masked.customer).toMatchObject({ name: "Anna M.", version: 3, customFields: { tier: "gold" } });
  });

  it("refuses a mask naming a field that cannot be updated, or clearing the name", async () => {
    const customers = api.client(CustomersService, token);
    const { customer } = await customers.createCustomer({ name: "Anna", email: "anna@example.de" });
    expect(await refusalOf(customers.updateCustomer({ id: customer!.id, updateMask: create(FieldMaskSchema, { paths: ["version"] }) }))).toEqual({
      code: "InvalidArgument",
      reason: "VALIDATION_FAILED",
      fields: ["updateMask"],
    });
    const cleared = await customers.updateCustomer({ id: customer!.id, updateMask: create(FieldMaskSchema, { paths: ["name"] }) }).catch((e: Error) => e);
    expect(violationsOf(cleared as Error)).toEqual(["name"]);
    expect(api.customers.rows.get(customer!.id)).toMatchObject({ name: "Anna", version: 1 });
  });
});

describe("list filters", () => {
  it("hands the store typed clauses parsed from the query, with name and email as exact filters", async () => {
    const res = await api.rest("GET", "/api/v1/customers?tier__in=gold,silver&score__between=40,60&email=a%40b.com", { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(api.customers.lastQuery).toEqual({
      name: undefined,
      email: "a@b.com",
      customFilter: {
        clauses: [
          { fieldKey: "tier", fieldType: "SELECT", operator: "in", values: ["gold", "silver"] },
          { fieldKey: "score", fieldType: "NUMBER", operator: "between", values: [40, 60] },
        ],
      },
    });
  });

  it("refuses an unknown field key or operator, or a value of the wrong type, with 400", async () => {
    const key = await api.rest("GET", "/api/v1/customers?color=red", { token });
    expect([key.status, reasonOf(key.body)]).toEqual([400, "UNKNOWN_FILTER_FIELD"]);
    const op = await api.rest("GET", "/api/v1/customers?score__near=3", { token });
    expect([op.status, reasonOf(op.body)]).toEqual([400, "UNKNOWN_FILTER_OPERATOR"]);
    const value = await api.rest("GET", "/api/v1/customers?score__gt=lots", { token });
    expect([value.status, reasonOf(value.body)]).toEqual([400, "INVALID_FILTER"]);
    expect(api.customers.lastQuery).toBeUndefined();
  });

  it("refuses a page token used with other filters", async () => {
    for (let i = 1; i <= 3; i++) await api.rest("POST", "/api/v1/customers", { token, body: { name: `C${i}`, email: `c${i}@x.com` } });
    const first = await api.rest("GET", "/api/v1/customers?pageSize=2&score__gte=1", { token });
    expect(first.body.nextPageToken).not.toBe("");
    const misused = await api.rest("GET", `/api/v1/customers?pageSize=2&score__gte=2&pageToken=${first.body.nextPageToken}`, { token });
    expect([misused.status, reasonOf(misused.body), violationsOf(misused.body)]).toEqual([400, "VALIDATION_FAILED", ["pageToken"]]);
  });
});
