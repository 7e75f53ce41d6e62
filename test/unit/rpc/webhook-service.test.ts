/**
 * The webhook endpoint service at its contract, in memory: the permission it needs, the URLs and
 * event types it refuses, tenant scoping and which fields an update writes. Deliveries, signing
 * and the outbox need the real services (test/integration/webhooks.test.ts).
 */
import { create } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { beforeEach, describe, expect, it } from "vitest";
import { WebhookService } from "@files-and-fields/client/gen/filestorage/v1/webhooks_service_pb.js";
import { reasonOf, refusalOf, violationsOf } from "../../support/errors.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

let api: InMemoryApi;
let token: string;
beforeEach(async () => {
  api = inMemoryApi();
  token = await api.token("t1");
});

async function createEndpoint(body: Record<string, unknown>) {
  const res = await api.rest("POST", "/api/v1/webhook-endpoints", { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe("refusals", () => {
  it("requires webhook_endpoint:MANAGE", async () => {
    const res = await api.rest("GET", "/api/v1/webhook-endpoints", { token: await api.token("t1", { perms: ["stored_object:READ"] }) });
    expect([res.status, reasonOf(res.body), res.body.message]).toEqual([403, "PERMISSION_DENIED", "permission webhook_endpoint:MANAGE is required"]);
  });

  it("refuses an unknown event type, naming its index", async () => {
    const res = await api.rest("POST", "/api/v1/webhook-endpoints", { token, body: { url: "https://hooks.example.com/", eventTypes: ["scan.passed", "scan.exploded"] } });
    expect([res.status, reasonOf(res.body), violationsOf(res.body)]).toEqual([400, "UNKNOWN_EVENT_TYPE", ["eventTypes[1]"]]);
  });

  it.each([
    ["a non-http URL", "ftp://hooks.example.com/", "WEBHOOK_URL_NOT_ALLOWED"],
    ["credentials in the URL", "https://u:p@hooks.example.com/", "WEBHOOK_URL_NOT_ALLOWED"],
    ["something that is no URL", "not a url", "VALIDATION_FAILED"],
  ])("refuses %s", async (_case, url, reason) => {
    const res = await api.rest("POST", "/api/v1/webhook-endpoints", { token, body: { url } });
    expect([res.status, res.body.code, reasonOf(res.body)]).toEqual([400, "invalid_argument", reason]);
    expect(api.endpoints.rows.size).toBe(0);
  });

  it("treats another tenant's endpoint as not found on get, update and delete", async () => {
    const { webhookEndpoint } = await createEndpoint({ url: "https://hooks.example.com/x" });
    const other = await api.token("t2");
    for (const [method, body] of [["GET"], ["PATCH", { enabled: false }], ["DELETE"]] as const) {
      const res = await api.rest(method, `/api/v1/webhook-endpoints/${webhookEndpoint.id}`, { token: other, body });
      expect([method, res.status, reasonOf(res.body)]).toEqual([method, 404, "WEBHOOK_ENDPOINT_NOT_FOUND"]);
    }
    expect(api.endpoints.rows.get(webhookEndpoint.id)).toMatchObject({ enabled: true });
  });
});

describe("which fields an update writes", () => {
  it("over REST, the body's keys: an empty eventTypes list clears it, the URL stays", async () => {
    const { webhookEndpoint, secret } = await createEndpoint({ url: "http://127.0.0.1:9/a", eventTypes: ["scan.failed"] });
    expect(secret).toMatch(/^whsec_/);
    const patched = await api.rest("PATCH", `/api/v1/webhook-endpoints/${webhookEndpoint.id}`, { token, body: { eventTypes: [] } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.webhookEndpoint).toMatchObject({ url: "http://127.0.0.1:9/a", eventTypes: [], enabled: true });
    expect(JSON.stringify(patched.body)).not.toContain("whsec_");
  });

  it("over a typed client, an empty list changes nothing without a mask and clears with one", async () => {
    const webhooks = api.client(WebhookService, token);
    const { webhookEndpoint } = await webhooks.createWebhookEndpoint({ url: "http://127.0.0.1:9/a", eventTypes: ["scan.failed"] });
    const unmasked = await webhooks.updateWebhookEndpoint({ id: webhookEndpoint!.id, eventTypes: [], enabled: false });
    expect(unmasked.webhookEndpoint).toMatchObject({ eventTypes: ["scan.failed"], enabled: false, disabledReason: "disabled by user-1" });
    const masked = await webhooks.updateWebhookEndpoint({ id: webhookEndpoint!.id, updateMask: create(FieldMaskSchema, { paths: ["event_types"] }), eventTypes: [] });
    expect(masked.webhookEndpoint).toMatchObject({ eventTypes: [], enabled: false });
    expect(await refusalOf(webhooks.updateWebhookEndpoint({ id: webhookEndpoint!.id, updateMask: create(FieldMaskSchema, { paths: ["secret"] }) }))).toEqual({
      code: "InvalidArgument",
      reason: "VALIDATION_FAILED",
      fields: ["updateMask"],
    });
  });
});

describe("the endpoint limit per tenant", () => {
  it("refuses the create past WEBHOOK_MAX_ENDPOINTS_PER_TENANT with a stable reason; other tenants are not affected", async () => {
    const limit = api.config.webhooks.maxEndpointsPerTenant;
    for (let i = 0; i < limit; i++) await createEndpoint({ url: `https://hooks.example.com/${i}` });
    const res = await api.rest("POST", "/api/v1/webhook-endpoints", { token, body: { url: "https://hooks.example.com/over" } });
    expect([res.status, res.body.code, reasonOf(res.body)]).toEqual([429, "resource_exhausted", "WEBHOOK_ENDPOINT_LIMIT_REACHED"]);
    expect(res.body.message).toContain(`at most ${limit}`);
    expect(api.endpoints.rows.size).toBe(limit);
    const other = await api.rest("POST", "/api/v1/webhook-endpoints", { token: await api.token("t2"), body: { url: "https://hooks.example.com/t2" } });
    expect(other.status).toBe(200);
    // A place freed by a delete can be taken again.
    const first = [...api.endpoints.rows.values()].find((r) => r.tenantId === "t1")!;
    expect((await api.rest("DELETE", `/api/v1/webhook-endpoints/${first.id}`, { token })).status).toBe(200);
    await createEndpoint({ url: "https://hooks.example.com/again" });
  });
});

describe("RotateWebhookSecret", () => {
  it("answers a new secret once, sets the overlap's end and audits the rotation", async () => {
    const { webhookEndpoint, secret } = await createEndpoint({ url: "https://hooks.example.com/r" });
    const res = await api.rest("POST", `/api/v1/webhook-endpoints/${webhookEndpoint.id}:rotate-secret`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(res.body.secret).not.toBe(secret);
    const { id, updatedAt, previousSecretExpiresAt } = res.body.webhookEndpoint;
    expect([id, Date.parse(previousSecretExpiresAt) - Date.parse(updatedAt)]).toEqual([webhookEndpoint.id, api.config.webhooks.secretOverlapSeconds * 1000]);
    expect(api.endpoints.rows.get(webhookEndpoint.id)).toMatchObject({ secret: res.body.secret, previousSecret: secret });
    expect(api.endpoints.audit).toEqual([expect.objectContaining({ tenantId: "t1", endpointId: webhookEndpoint.id, actorId: "user-1" })]);
    const read = await api.rest("GET", `/api/v1/webhook-endpoints/${webhookEndpoint.id}`, { token });
    expect(JSON.stringify(read.body)).not.toContain("whsec_");
  });

  it("needs webhook_endpoint:MANAGE, a UUID, and the caller's own endpoint", async () => {
    const { webhookEndpoint, secret } = await createEndpoint({ url: "https://hooks.example.com/r" });
    const path = `/api/v1/webhook-endpoints/${webhookEndpoint.id}:rotate-secret`;
    const reader = await api.rest("POST", path, { token: await api.token("t1", { perms: ["stored_object:READ"] }) });
    expect([reader.status, reasonOf(reader.body)]).toEqual([403, "PERMISSION_DENIED"]);
    const other = await api.rest("POST", path, { token: await api.token("t2") });
    expect([other.status, reasonOf(other.body)]).toEqual([404, "WEBHOOK_ENDPOINT_NOT_FOUND"]);
    const malformed = await api.rest("POST", "/api/v1/webhook-endpoints/not-a-uuid:rotate-secret", { token });
    expect([malformed.status, reasonOf(malformed.body)]).toEqual([400, "VALIDATION_FAILED"]);
    expect(api.endpoints.rows.get(webhookEndpoint.id)).toMatchObject({ secret });
    expect(api.endpoints.audit).toEqual([]);
  });
});
