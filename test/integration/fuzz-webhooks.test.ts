/**
 * Request fuzzing of the webhook endpoint RPCs against the real server and database: random and
 * boundary bodies over REST and typed random messages over gRPC answer a 200 or a client error,
 * never a 5xx, and afterwards the tenant's rows are exactly those whose calls answered 200, as
 * they answered them. The same REST calls also run in memory in test/unit/rpc/fuzz-webhooks.test.ts.
 */
import { Code, createClient } from "@connectrpc/connect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WebhookService } from "../../gen/filestorage/v1/webhooks_service_pb.js";
import { allowedGrpc, typedText } from "../support/fuzz/building-blocks.js";
import { EVENT_TYPES, fuzzEndpointCalls, webhookUrl } from "../support/fuzz/webhook-calls.js";
import { rest, tokenFor, transportFor, uniqueTenant } from "../support/clients.js";
import { sql } from "../support/stack-access.js";

async function expectEndpointRows(tenant: string, model: Map<string, any>) {
  const rows = await sql<any>("select * from webhook_endpoints where tenant_id = ?", [tenant]);
  expect(rows.map((r) => r.id).sort()).toEqual([...model.keys()].sort());
  for (const row of rows) {
    const last = model.get(row.id);
    expect({ url: row.url, eventTypes: row.event_types, enabled: row.enabled, disabledReason: row.disabled_reason ?? "" }, row.id).toEqual({
      url: last.url,
      eventTypes: last.eventTypes,
      enabled: last.enabled,
      disabledReason: last.disabledReason,
    });
  }
}

describe("fuzzing the webhook endpoint RPCs", () => {
  it("random create, update, get, delete and list calls never produce a 5xx, and leave exactly the rows that answered 200", async () => {
    const tenant = uniqueTenant("fz-wh");
    const token = await tokenFor(tenant);
    const { model, gone } = await fuzzEndpointCalls(rest, token, 150);
    expect(model.size + gone.length, "some creates succeeded").toBeGreaterThan(0);
    await expectEndpointRows(tenant, model);
  });
});

describe("fuzzing the webhook endpoint RPCs over gRPC with typed random messages", () => {
  it("typed random creates and updates answer OK or a client code; the rows are those that answered OK", async () => {
    const tenant = uniqueTenant("fz-grpc");
    const webhooks = createClient(WebhookService, transportFor("grpc", await tokenFor(tenant)));
    const endpointModel = new Map<string, any>();
    const known = (m: Map<string, unknown>) => fc.oneof(fc.nat().map((n) => [...m.keys()][n % Math.max(m.size, 1)] ?? "none"), fc.uuid(), typedText);
    const action = fc.oneof(
      fc.record({ kind: fc.constant("createEndpoint" as const), url: webhookUrl, eventTypes: fc.array(fc.constantFrom(...EVENT_TYPES, "scan.exploded", ""), { maxLength: 3 }) }),
      fc.record({ kind: fc.constant("updateEndpoint" as const), id: known(endpointModel), url: fc.option(webhookUrl, { nil: undefined }), enabled: fc.option(fc.boolean(), { nil: undefined }), eventTypes: fc.array(fc.constantFrom(...EVENT_TYPES, "x.y"), { maxLength: 2 }) }),
    );
    const outcome = allowedGrpc([Code.InvalidArgument, Code.NotFound, Code.Aborted]);
    await fc.assert(
      fc.asyncProperty(action, async (a) => {
        if (a.kind === "createEndpoint") {
          const res = await outcome(webhooks.createWebhookEndpoint({ url: a.url, eventTypes: a.eventTypes }));
          if (res.ok) endpointModel.set(res.value.webhookEndpoint.id, res.value.webhookEndpoint);
        } else {
          const res = await outcome(webhooks.updateWebhookEndpoint({ id: a.id, url: a.url, enabled: a.enabled, eventTypes: a.eventTypes }));
          if (res.ok) endpointModel.set(a.id, res.value.webhookEndpoint);
        }
      }),
      { numRuns: 40 },
    );
    const endpoints = await sql<any>("select id, url, event_types, enabled from webhook_endpoints where tenant_id = ?", [tenant]);
    expect(endpoints.map((r) => r.id).sort()).toEqual([...endpointModel.keys()].sort());
    for (const row of endpoints) {
      const last = endpointModel.get(row.id);
      expect({ url: row.url, eventTypes: row.event_types, enabled: row.enabled }).toEqual({ url: last.url, eventTypes: last.eventTypes, enabled: last.enabled });
    }
  });
});
