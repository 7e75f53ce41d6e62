/**
 * Tenant isolation as a property, for every RPC outside file storage that takes an id (custom
 * field definitions, customers, webhook endpoints; the file-storage RPCs are in hostile.test.ts):
 * an id of another tenant behaves exactly as an id that does not exist (same status, code,
 * message and details once the id is replaced), and the owner's rows are unchanged afterwards.
 * List calls of one tenant never show another tenant's rows, whatever their filters.
 */
import { ConnectError, createClient } from "@connectrpc/connect";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { WebhookService } from "@files-and-fields/client/gen/filestorage/v1/webhooks_service_pb.js";
import { ErrorInfoSchema } from "@files-and-fields/client/gen/google/rpc/error_details_pb.js";
import { clientsFor, rest, tokenFor, transportFor, uniqueTenant } from "../support/clients.js";
import { sql } from "../support/stack-access.js";

type Kind = "definition" | "customer" | "endpoint";

/** Every RPC that takes a definition, customer or endpoint id, as REST calls (with a few bodies each). */
const idCalls: [Kind, string, (id: string) => string, unknown?][] = [
  ["definition", "PATCH", (id) => `/api/v1/custom-fields/${id}`, { fieldLabel: "Taken over" }],
  ["definition", "PATCH", (id) => `/api/v1/custom-fields/${id}`, { fieldLabel: "Taken over", expectedVersion: 1 }],
  ["definition", "PATCH", (id) => `/api/v1/custom-fields/${id}`, { isRequired: true, description: null }],
  ["definition", "PATCH", (id) => `/api/v1/custom-fields/${id}`, { fieldKey: "renamed", computedFormula: "nope((" }],
  ["definition", "PATCH", (id) => `/api/v1/custom-fields/${id}`, {}],
  ["definition", "DELETE", (id) => `/api/v1/custom-fields/${id}`],
  ["customer", "GET", (id) => `/api/v1/customers/${id}`],
  ["customer", "PATCH", (id) => `/api/v1/customers/${id}`, { name: "Taken over" }],
  ["customer", "PATCH", (id) => `/api/v1/customers/${id}`, { name: "Taken over", expectedVersion: 1 }],
  ["customer", "PATCH", (id) => `/api/v1/customers/${id}`, { expectedVersion: 7, email: "x@example.com" }],
  ["customer", "PATCH", (id) => `/api/v1/customers/${id}`, { customFields: { nickname: "mine now", score: 3 } }],
  ["customer", "PATCH", (id) => `/api/v1/customers/${id}`, { customFields: { unknown_key: 1 } }],
  ["endpoint", "GET", (id) => `/api/v1/webhook-endpoints/${id}`],
  ["endpoint", "PATCH", (id) => `/api/v1/webhook-endpoints/${id}`, { enabled: false }],
  ["endpoint", "PATCH", (id) => `/api/v1/webhook-endpoints/${id}`, { enabled: true }],
  ["endpoint", "PATCH", (id) => `/api/v1/webhook-endpoints/${id}`, { url: "http://127.0.0.1:9/stolen", eventTypes: ["scan.passed"] }],
  ["endpoint", "PATCH", (id) => `/api/v1/webhook-endpoints/${id}`, { eventTypes: ["scan.exploded"] }],
  ["endpoint", "DELETE", (id) => `/api/v1/webhook-endpoints/${id}`],
];

/** A random id of the right format that exists nowhere: cuid2 for definitions, UUIDv7 otherwise. */
const missingId: Record<Kind, fc.Arbitrary<string>> = {
  definition: fc.stringMatching(/^[a-z][a-z0-9]{23}$/),
  customer: fc.uuid({ version: 7 }),
  endpoint: fc.uuid({ version: 7 }),
};

async function ok(method: string, path: string, token: string, body?: unknown) {
  const res = await rest(method, path, { token, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

interface TenantData {
  tenant: string;
  token: string;
  definitions: string[];
  customers: string[];
  endpoints: string[];
}

/** A tenant with the same field keys as every other (so filters on them are legal everywhere). */
async function tenantWithData(prefix: string, nickname: string): Promise<TenantData> {
  const tenant = uniqueTenant(prefix);
  const token = await tokenFor(tenant);
  const definitions = [
    (await ok("POST", "/api/v1/custom-fields", token, { entityType: "Customer", fieldKey: "nickname", fieldLabel: "Nickname", fieldType: "string" })).fieldDefinition.id,
    (await ok("POST", "/api/v1/custom-fields", token, { entityType: "Customer", fieldKey: "score", fieldLabel: "Score", fieldType: "number", indexed: true })).fieldDefinition.id,
    (await ok("POST", "/api/v1/custom-fields", token, { entityType: "Customer", fieldKey: "dormant", fieldLabel: "Dormant", fieldType: "boolean", isActive: false })).fieldDefinition.id,
  ];
  const customers = [
    (await ok("POST", "/api/v1/customers", token, { name: "Ada", email: "ada@example.com", customFields: { nickname, score: 10 } })).customer.id,
    (await ok("POST", "/api/v1/customers", token, { name: `${prefix} only`, email: `${prefix}@example.com`, customFields: { score: 99 } })).customer.id,
  ];
  const endpoints = [
    (await ok("POST", "/api/v1/webhook-endpoints", token, { url: `http://127.0.0.1:9/${prefix}/a`, eventTypes: ["hold.placed"] })).webhookEndpoint.id,
    (await ok("POST", "/api/v1/webhook-endpoints", token, { url: `http://127.0.0.1:9/${prefix}/b` })).webhookEndpoint.id,
  ];
  await ok("PATCH", `/api/v1/webhook-endpoints/${endpoints[1]}`, token, { enabled: false });
  return { tenant, token, definitions, customers, endpoints };
}

/** Everything a tenant owns, straight from the tables (audit rows included). */
async function snapshot(tenant: string) {
  return {
    definitions: await sql("select * from custom_field_definitions where tenant_id = ? order by id", [tenant]),
    definitionAudit: await sql("select id from custom_field_definition_audit where tenant_id = ? order by id", [tenant]),
    customers: await sql("select * from customers where tenant_id = ? order by id", [tenant]),
    endpoints: await sql("select * from webhook_endpoints where tenant_id = ? order by id", [tenant]),
  };
}

/** The owner's rows as the API shows them to the owner. */
async function readBack(owner: TenantData) {
  const definitions = (await ok("GET", "/api/v1/custom-fields/Customer", owner.token)).fieldDefinitions;
  const customers = await Promise.all(owner.customers.map(async (id) => (await ok("GET", `/api/v1/customers/${id}`, owner.token)).customer));
  const endpoints = await Promise.all(owner.endpoints.map(async (id) => (await ok("GET", `/api/v1/webhook-endpoints/${id}`, owner.token)).webhookEndpoint));
  return { definitions, customers, endpoints };
}

let owner: TenantData;
let intruder: TenantData;
/** An id of a definition the owner soft-deleted: not found for anyone. */
let deletedDefinition: string;

beforeAll(async () => {
  owner = await tenantWithData("owner", "owner-secret-nick");
  intruder = await tenantWithData("intruder", "intruder-nick");
  const doomed = (await ok("POST", "/api/v1/custom-fields", owner.token, { entityType: "Customer", fieldKey: "doomed", fieldLabel: "Doomed", fieldType: "string" })).fieldDefinition.id;
  await ok("DELETE", `/api/v1/custom-fields/${doomed}`, owner.token);
  deletedDefinition = doomed;
});

const foreignIds = (kind: Kind): string[] =>
  kind === "definition" ? [...owner.definitions, deletedDefinition] : kind === "customer" ? owner.customers : owner.endpoints;

/** The whole error body with the id replaced: status, code, message and details must all match. */
const normalized = (res: { status: number; body: unknown }, id: string) => ({ status: res.status, body: JSON.stringify(res.body ?? null).replaceAll(id, "ID") });

describe("tenant isolation as a property (custom fields, customers, webhook endpoints)", () => {
  it("an id of another tenant behaves exactly as an id that does not exist, on every RPC that takes an id (REST)", async () => {
    const before = await snapshot(owner.tenant);
    const seen = await readBack(owner);
    const call = fc.constantFrom(...idCalls).chain((c) => fc.tuple(fc.constant(c), fc.constantFrom(...foreignIds(c[0])), missingId[c[0]]));
    await fc.assert(
      fc.asyncProperty(call, async ([[, method, path, body], theirs, missing]) => {
        const foreign = await rest(method, path(theirs), { token: intruder.token, body });
        const absent = await rest(method, path(missing), { token: intruder.token, body });
        expect(foreign.status, JSON.stringify(foreign.body)).toBeLessThan(500);
        expect(foreign.status, JSON.stringify(foreign.body)).not.toBe(200);
        expect(normalized(foreign, theirs)).toEqual(normalized(absent, missing));
      }),
      { numRuns: 120 },
    );
    // Nothing of the owner's changed: not a version, not a timestamp, not an audit row.
    expect(await snapshot(owner.tenant)).toEqual(before);
    expect(await readBack(owner)).toEqual(seen);
  });

  it("the same holds over gRPC, for one call of each service", async () => {
    const before = await snapshot(owner.tenant);
    const { fields, customers } = clientsFor("grpc", intruder.token);
    const webhooks = createClient(WebhookService, transportFor("grpc", intruder.token));
    const failure = async (call: Promise<unknown>, id: string) => {
      const error = ConnectError.from(await call.then(() => new Error("the call succeeded"), (e: unknown) => e));
      return {
        code: error.code,
        message: error.rawMessage.replaceAll(id, "ID"),
        reasons: error.findDetails(ErrorInfoSchema).map((d) => [d.reason, d.metadata]),
        details: error.details.length,
      };
    };
    const calls: [Kind, (id: string) => Promise<unknown>][] = [
      ["definition", (id) => fields.updateFieldDefinition({ id, fieldLabel: "Taken over", expectedVersion: 1 })],
      ["customer", (id) => customers.getCustomer({ id })],
      ["endpoint", (id) => webhooks.updateWebhookEndpoint({ id, enabled: false })],
    ];
    for (const [kind, call] of calls) {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...foreignIds(kind)), missingId[kind], async (theirs, missing) => {
          const foreign = await failure(call(theirs), theirs);
          expect(foreign.code).not.toBe(undefined);
          expect(foreign).toEqual(await failure(call(missing), missing));
        }),
        { numRuns: 10 },
      );
    }
    expect(await snapshot(owner.tenant)).toEqual(before);
  });
});

describe("list calls show only the caller's tenant", () => {
  it("definitions, customers and endpoints listed by one tenant are exactly its own (REST and gRPC)", async () => {
    for (const [me, them] of [
      [owner, intruder],
      [intruder, owner],
    ] as const) {
      const definitions = (await ok("GET", "/api/v1/custom-fields/Customer", me.token)).fieldDefinitions;
      // The inactive definition is not listed; the other two are, and only this tenant's.
      expect(definitions.map((d: any) => d.id).sort()).toEqual(me.definitions.slice(0, 2).sort());
      expect(definitions.every((d: any) => d.tenantId === me.tenant)).toBe(true);
      const customers = (await ok("GET", "/api/v1/customers?pageSize=500", me.token)).customers;
      expect(customers.map((c: any) => c.id).sort()).toEqual([...me.customers].sort());
      const endpoints = (await ok("GET", "/api/v1/webhook-endpoints?pageSize=500", me.token)).webhookEndpoints;
      expect(endpoints.map((e: any) => e.id).sort()).toEqual([...me.endpoints].sort());

      const grpc = clientsFor("grpc", me.token);
      expect((await grpc.fields.listFieldDefinitions({ entityType: "Customer" })).fieldDefinitions.map((d) => d.id).sort()).toEqual(me.definitions.slice(0, 2).sort());
      expect((await grpc.customers.listCustomers({ pageSize: 500 })).customers.map((c) => c.id).sort()).toEqual([...me.customers].sort());
      const grpcEndpoints = await createClient(WebhookService, transportFor("grpc", me.token)).listWebhookEndpoints({ pageSize: 500 });
      expect(grpcEndpoints.webhookEndpoints.map((e) => e.id).sort()).toEqual([...me.endpoints].sort());

      // A page token of the other tenant's listing is only a position: it shows nothing of theirs.
      const theirPage = await ok("GET", "/api/v1/customers?pageSize=1", them.token);
      const withTheirToken = await rest("GET", `/api/v1/customers?pageSize=500&pageToken=${encodeURIComponent(theirPage.nextPageToken)}`, { token: me.token });
      for (const c of withTheirToken.body.customers ?? []) expect(me.customers).toContain(c.id);
      const theirEndpoints = await ok("GET", "/api/v1/webhook-endpoints?pageSize=1", them.token);
      const endpointsWithTheirToken = await rest("GET", `/api/v1/webhook-endpoints?pageSize=500&pageToken=${encodeURIComponent(theirEndpoints.nextPageToken)}`, { token: me.token });
      for (const e of endpointsWithTheirToken.body.webhookEndpoints ?? []) expect(me.endpoints).toContain(e.id);
    }
  });

  it("no name, email or custom field filter finds another tenant's customer", async () => {
    const ownerAda = owner.customers[0]!;
    // The owner's own filter does find it, so an empty answer for the intruder means something.
    const mine = await ok("GET", "/api/v1/customers?nickname__eq=owner-secret-nick", owner.token);
    expect(mine.customers.map((c: any) => c.id)).toEqual([ownerAda]);
    const filter = fc.oneof(
      fc.record({ key: fc.constantFrom("nickname__eq", "nickname__contains", "nickname__icontains", "nickname__startswith", "nickname__in", "nickname"), value: fc.constantFrom("owner-secret-nick", "owner", "OWNER-SECRET", "owner-secret-nick,intruder-nick", "nick") }),
      fc.record({ key: fc.constantFrom("score__gte", "score__lte", "score__eq", "score__between", "score__isnull", "score__in"), value: fc.constantFrom("0", "10", "99", "0,100", "false", "true", "10,99") }),
      fc.record({ key: fc.constantFrom("name", "email"), value: fc.constantFrom("Ada", "ada@example.com", "owner only", "owner@example.com") }),
    );
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(filter, { minLength: 1, maxLength: 3, selector: (f) => f.key }), async (filters) => {
        const qs = new URLSearchParams(filters.map((f) => [f.key, f.value])).toString();
        const res = await rest("GET", `/api/v1/customers?${qs}`, { token: intruder.token });
        expect(res.status, `${qs}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
        if (res.status !== 200) {
          expect(res.body.code).toBe("invalid_argument");
          return;
        }
        for (const c of res.body.customers) expect(intruder.customers, qs).toContain(c.id);
        expect(JSON.stringify(res.body)).not.toContain("owner");
      }),
      { numRuns: 60 },
    );
  });
});
