/**
 * Request fuzzing of the webhook endpoint RPCs against the real server and database: random and
 * boundary bodies over REST and typed random messages over gRPC answer a 200 or a client error,
 * never a 5xx, and afterwards the tenant's rows are exactly those whose calls answered 200, as
 * they answered them. The same REST calls also run in memory in test/unit/rpc/fuzz-webhooks.test.ts.
 */
import { Code, createClient } from "@connectrpc/connect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WebhookService } from "@files-and-fields/client/gen/filestorage/v1/webhooks_service_pb.js";
import { allowedGrpc, typedText } from "../support/fuzz/building-blocks.js";
import { HitRates } from "../support/fuzz/hit-rates.js";
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
    const hits = new HitRates();
    const { model, gone } = await fuzzEndpointCalls(rest, token, 600, hits);
    expect(model.size + gone.length, "some creates succeeded").toBeGreaterThan(0);
    hits.expectAtLeast("webhook endpoints over REST", { create: 1 / 3, update: 1 / 10, list: 1 / 3 });
    await expectEndpointRows(tenant, model);
  });
});

/** A URL the API accepts three times in four, otherwise any from the fuzzers' set. */
const urlMostlyValid = fc.oneof({ weight: 3, arbitrary: fc.oneof(fc.constantFrom("http://127.0.0.1:9/a", "http://[::1]:8080/"), fc.webUrl()) }, { weight: 1, arbitrary: webhookUrl });

/** Event types valid three times in four, so most calls get past validation; otherwise any of `pool`. */
function eventTypesMostlyValid(pool: string[], maxLength: number) {
  return fc.oneof(
    { weight: 3, arbitrary: fc.uniqueArray(fc.constantFrom(...EVENT_TYPES), { minLength: 1, maxLength }) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...pool), { maxLength }) },
  );
}

describe("fuzzing the webhook endpoint RPCs over gRPC with typed random messages", () => {
  it("typed random creates and updates answer OK or a client code; the rows are those that answered OK", async () => {
    const tenant = uniqueTenant("fz-grpc");
    const webhooks = createClient(WebhookService, transportFor("grpc", await tokenFor(tenant)));
    const endpointModel = new Map<string, any>();
    const known = (m: Map<string, unknown>) => fc.oneof(fc.nat().map((n) => [...m.keys()][n % Math.max(m.size, 1)] ?? "none"), fc.uuid(), typedText);
    const action = fc.oneof(
      fc.record({ kind: fc.constant("createEndpoint" as const), url: urlMostlyValid, eventTypes: eventTypesMostlyValid([...EVENT_TYPES, "scan.exploded", ""], 3) }),
      fc.record({ kind: fc.constant("updateEndpoint" as const), id: known(endpointModel), url: fc.option(urlMostlyValid, { nil: undefined }), enabled: fc.option(fc.boolean(), { nil: undefined }), eventTypes: eventTypesMostlyValid([...EVENT_TYPES, "x.y"], 2) }),
    );
    // ResourceExhausted: the tenant's endpoint quota (WEBHOOK_MAX_ENDPOINTS_PER_TENANT), a create that got that far.
    const outcome = allowedGrpc([Code.InvalidArgument, Code.NotFound, Code.Aborted, Code.ResourceExhausted]);
    const hits = new HitRates();
    await fc.assert(
      fc.asyncProperty(action, async (a) => {
        if (a.kind === "createEndpoint") {
          const res = await outcome(webhooks.createWebhookEndpoint({ url: a.url, eventTypes: a.eventTypes }));
          hits.tally("create", res.ok || res.code === Code.ResourceExhausted);
          if (res.ok) endpointModel.set(res.value.webhookEndpoint.id, res.value.webhookEndpoint);
        } else {
          const res = await outcome(webhooks.updateWebhookEndpoint({ id: a.id, url: a.url, enabled: a.enabled, eventTypes: a.eventTypes }));
          hits.tally("update", res.ok);
          if (res.ok) endpointModel.set(a.id, res.value.webhookEndpoint);
        }
      }),
      { numRuns: 300 },
    );
    hits.expectAtLeast("webhook endpoints over gRPC", { create: 1 / 3, update: 1 / 10 });
    const endpoints = await sql<any>("select id, url, event_types, enabled from webhook_endpoints where tenant_id = ?", [tenant]);
    expect(endpoints.map((r) => r.id).sort()).toEqual([...endpointModel.keys()].sort());
    for (const row of endpoints) {
      const last = endpointModel.get(row.id);
      expect({ url: row.url, eventTypes: row.event_types, enabled: row.enabled }).toEqual({ url: last.url, eventTypes: last.eventTypes, enabled: last.enabled });
    }
  });
});
