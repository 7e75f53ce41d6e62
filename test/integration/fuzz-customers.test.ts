/**
 * Request fuzzing of the customer RPCs against the real server and database: random and boundary
 * bodies over REST and typed random messages over gRPC answer a 200 or a client error, never a
 * 5xx, and afterwards the tenant's rows are exactly those whose calls answered 200, as they
 * answered them. Random list filters compile to SQL here, so they are fuzzed here only; the
 * create and update calls also run in memory in test/unit/rpc/fuzz-customers.test.ts.
 */
import { Code } from "@connectrpc/connect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allowedGrpc, craftedToken, expectClientOutcome, typedText } from "../support/fuzz/building-blocks.js";
import { HitRates } from "../support/fuzz/hit-rates.js";
import {
  CUSTOMER_DEFINITIONS,
  CUSTOMER_KEYS,
  LIST_FILTER_KEY,
  customFieldValue,
  email,
  fuzzCustomerCalls,
  listFilters,
  listPageSize,
  listQuery,
  validCustomer,
  validCustomFields,
  type CustomerModel,
} from "../support/fuzz/customer-calls.js";
import { clientsFor, rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { sql } from "../support/stack-access.js";

async function customerTenant(prefix: string) {
  const tenant = uniqueTenant(prefix);
  const token = await tokenFor(tenant);
  for (const definition of CUSTOMER_DEFINITIONS) {
    const res = await rest("POST", "/api/v1/custom-fields", { token, body: { entityType: "Customer", ...definition } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return { tenant, token };
}

async function expectCustomerRows(tenant: string, model: Map<string, CustomerModel>) {
  const rows = await sql<any>("select * from customers where tenant_id = ?", [tenant]);
  expect(rows.map((r) => r.id).sort()).toEqual([...model.keys()].sort());
  for (const row of rows) {
    const { last } = model.get(row.id)!;
    expect({ name: row.name, email: row.email, customFields: row.custom_fields, version: row.version }, row.id).toEqual({
      name: last.name,
      email: last.email,
      customFields: last.customFields,
      version: last.version,
    });
  }
}

describe("fuzzing the customer RPCs", () => {
  it("random create and update calls never produce a 5xx, and leave exactly the rows that answered 200", async () => {
    const { tenant, token } = await customerTenant("fz-cu");
    const hits = new HitRates();
    const model = await fuzzCustomerCalls(rest, token, 300, hits);
    expect(model.size, "some creates succeeded").toBeGreaterThan(0);
    hits.expectAtLeast("customers over REST", { create: 1 / 3, update: 1 / 6 });
    await expectCustomerRows(tenant, model);
  });

  it("random list filters (`key__op=value`), names, page sizes and page tokens never produce a 5xx nor another tenant's rows", async () => {
    const { token } = await customerTenant("fz-cu");
    const other = await customerTenant("fz-cu-other");
    const mine: string[] = [];
    for (const body of [
      { name: "Anna", email: "anna@example.de", customFields: { score: 10, since: "2024-03-01", vip: true, nickname: "an", meta: { a: 1 } } },
      { name: "Bob", email: "bob@example.com", customFields: { tier: "gold", score: 60 } },
      { name: "Cid", email: "cid@example.com" },
    ]) {
      mine.push((await rest("POST", "/api/v1/customers", { token, body })).body.customer.id);
      await rest("POST", "/api/v1/customers", { token: other.token, body });
    }
    const hits = new HitRates();
    await fc.assert(
      fc.asyncProperty(listQuery, async (qs) => {
        const res = await rest("GET", `/api/v1/customers?${qs}`, { token });
        expectClientOutcome(`GET /api/v1/customers?${qs}`, res, ["invalid_argument"]);
        hits.tally("list", res.status === 200);
        if (res.status === 200) for (const c of res.body.customers) expect(mine, qs).toContain(c.id);
        hits.tally("list answered rows (the tenant check saw rows)", res.status === 200 && res.body.customers.length > 0);
      }),
      { numRuns: 150 },
    );
    hits.expectAtLeast("customer lists over REST", { list: 1 / 2, "list answered rows (the tenant check saw rows)": 1 / 5 });
  });
});


describe("fuzzing the customer RPCs over gRPC with typed random messages", () => {
  it("typed random creates, updates and lists answer OK or a client code; the rows are those that answered OK", async () => {
    const { tenant, token } = await customerTenant("fz-grpc");
    const { customers } = clientsFor("grpc", token);
    const customerModel = new Map<string, CustomerModel>();
    const struct = fc.dictionary(fc.oneof(fc.constantFrom(...CUSTOMER_KEYS), fc.string({ maxLength: 6 })), fc.oneof(customFieldValue, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 4 }).map((d) => JSON.parse(JSON.stringify(d)));
    const known = (m: Map<string, unknown>) => fc.oneof({ weight: 4, arbitrary: fc.nat().map((n) => [...m.keys()][n % Math.max(m.size, 1)] ?? "none") }, { weight: 1, arbitrary: fc.uuid() }, { weight: 1, arbitrary: typedText });
    // Messages the contract accepts mostly (names, emails and values within its limits, page sizes
    // of 0 or more, filters that apply), typed junk one time in four.
    const customFields = fc.oneof({ weight: 3, arbitrary: validCustomFields.map((d) => JSON.parse(JSON.stringify(d))) }, { weight: 1, arbitrary: struct });
    const action = fc.oneof(
      { weight: 3, arbitrary: validCustomer.chain((c) => customFields.map((fields) => ({ kind: "createCustomer" as const, name: c.name, email: c.email, customFields: fields }))) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("createCustomer" as const), name: typedText, email, customFields: fc.option(struct, { nil: undefined }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant("updateCustomer" as const), id: known(customerModel), expectedVersion: fc.option(fc.integer({ min: -1, max: 3 }), { nil: undefined, freq: 2 }), name: fc.option(fc.oneof(validCustomer.map((c) => c.name), typedText), { nil: undefined }), customFields: fc.option(customFields, { nil: undefined }) }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant("listCustomers" as const), name: fc.string({ maxLength: 10 }), pageSize: listPageSize, pageToken: fc.oneof({ weight: 8, arbitrary: fc.constant("") }, { weight: 1, arbitrary: craftedToken(LIST_FILTER_KEY) }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) }), filters: listFilters }) },
    );
    const hits = new HitRates();
    const outcome = allowedGrpc([Code.InvalidArgument, Code.NotFound, Code.Aborted]);
    await fc.assert(
      fc.asyncProperty(action, async (a) => {
        if (a.kind === "createCustomer") {
          const res = await outcome(customers.createCustomer({ name: a.name, email: a.email, customFields: a.customFields }));
          hits.tally("create", res.ok);
          if (res.ok) customerModel.set(res.value.customer.id, { last: res.value.customer });
        } else if (a.kind === "updateCustomer") {
          const res = await outcome(customers.updateCustomer({ id: a.id, expectedVersion: a.expectedVersion, name: a.name, customFields: a.customFields }));
          hits.tally("update", res.ok);
          if (res.ok) customerModel.set(a.id, { last: res.value.customer });
        } else {
          const res = await outcome(customers.listCustomers({ name: a.name, pageSize: a.pageSize, pageToken: a.pageToken, filters: a.filters }));
          hits.tally("list", res.ok);
          hits.tally("pageSize accepted (0 or more)", a.pageSize >= 0);
          if (res.ok) for (const c of res.value.customers) expect(customerModel.has(c.id)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
    hits.expectAtLeast("customers over gRPC", { create: 1 / 3, list: 1 / 3, "pageSize accepted (0 or more)": 2 / 3 });
    expect(customerModel.size, "customers created").toBeGreaterThan(0);
    // The gRPC answers carry Timestamps and typed fields; compare what the table holds with them.
    const rows = await sql<any>("select id, name, email, custom_fields, version from customers where tenant_id = ?", [tenant]);
    expect(rows.map((r) => r.id).sort()).toEqual([...customerModel.keys()].sort());
    for (const row of rows) {
      const { last } = customerModel.get(row.id)!;
      expect({ name: row.name, email: row.email, customFields: row.custom_fields, version: row.version }).toEqual({ name: last.name, email: last.email, customFields: last.customFields, version: last.version });
    }
  });
});
