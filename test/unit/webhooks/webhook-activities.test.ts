import { ApplicationFailure } from "@temporalio/common";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { WebhookDeliveryRow } from "../../../src/adapters/postgres/entities/webhook-delivery.js";
import type { WebhookDeliveryDeps } from "../../../src/app/webhooks/delivery/deps.js";
import { planDeliveries } from "../../../src/app/webhooks/delivery/plan-deliveries.js";
import type { DeliveryEndpoint, OutboxEntry, OutgoingWebhook, SendResult } from "../../../src/app/webhooks/delivery/port.js";
import { newWebhookSecret, signatureHeaders } from "../../../src/adapters/webhooks/webhook-signing.js";
import { checkpointEntry } from "../../../src/domain/audit/chain/checkpoint-entry.js";
import { createWebhookActivities } from "../../../workflows/activities/webhook-activities.js";

const AT = new Date("2026-05-01T12:00:00Z");
const ref = { tenantId: "acme", deliveryId: "0196f0c8-0000-7000-8000-000000000001" };

function fakeOutbox(endpoint: Partial<DeliveryEndpoint> | undefined) {
  const delivery: WebhookDeliveryRow = {
    id: ref.deliveryId,
    tenantId: "acme",
    endpointId: "ep-1",
    auditEntryId: "audit-1",
    eventType: "scan.passed",
    payload: { type: "scan.passed", timestamp: AT.toISOString(), data: { object: { id: "o-1" } } },
    status: "PENDING",
    attempts: 0,
    createdAt: AT,
  };
  const calls: string[] = [];
  const outbox: WebhookDeliveryDeps["outbox"] = {
    fanOut: async () => ({ claimed: 0, deliveries: 0 }),
    unstarted: async () => ({ candidates: [], inFlight: { byTenant: new Map(), byEndpoint: new Map() } }),
    markStarted: async () => undefined,
    findDelivery: async () => delivery,
    findEndpoint: async () =>
      endpoint && { id: "ep-1", url: "https://hooks.example/in", secret: SECRET, enabled: true, ...endpoint },
    recordFailedAttempt: async (_r, status, error) => void calls.push(`attempt ${status} ${error}`),
    markDelivered: async (_r, status) => void calls.push(`delivered ${status}`),
    markEndpointGone: async (_r, endpointId, reason) => void calls.push(`gone ${endpointId} ${reason}`),
    finish: async (_r, status, error) => void calls.push(`finish ${status} ${error ?? ""}`.trim()),
  };
  return { outbox, calls, delivery };
}

const SECRET = newWebhookSecret();

function activities(endpoint: Partial<DeliveryEndpoint> | undefined, answer: SendResult) {
  const { outbox, calls } = fakeOutbox(endpoint);
  const sent: OutgoingWebhook[] = [];
  const acts = createWebhookActivities({
    outbox,
    send: async (webhook) => {
      sent.push(webhook);
      return answer;
    },
    sign: signatureHeaders,
    objectJson: (o) => ({ id: o.id, status: o.status }),
    startDelivery: async () => undefined,
    maxInFlightPerEndpoint: 10,
    maxInFlightPerTenant: 5,
    newId: () => "new-id",
    now: () => AT,
  });
  return { acts, calls, sent };
}

describe("deliverWebhook", () => {
  it("signs as Standard Webhooks does, with the delivery id as webhook-id", async () => {
    const { acts, sent } = activities({}, { kind: "answered", status: 200 });
    await acts.deliverWebhook(ref);
    const [webhook] = sent;
    expect(webhook!.headers["webhook-id"]).toBe(ref.deliveryId);
    expect(webhook!.headers["webhook-timestamp"]).toBe(String(AT.getTime() / 1000));
    // verify() checks the timestamp against the clock; sign again at "now" to verify the scheme.
    const now = new Date();
    const headers = signatureHeaders([SECRET], ref.deliveryId, now, webhook!.body);
    expect(new Webhook(SECRET).verify(webhook!.body, headers)).toEqual(JSON.parse(webhook!.body));
    expect(webhook!.headers["webhook-signature"]).toBe(new Webhook(SECRET).sign(ref.deliveryId, AT, webhook!.body));
  });

  it("a 2xx answer delivers", async () => {
    const { acts, calls } = activities({}, { kind: "answered", status: 202 });
    expect(await acts.deliverWebhook(ref)).toEqual({ status: "DELIVERED" });
    expect(calls).toEqual(["delivered 202"]);
  });

  it("a 410 answer disables the endpoint and ends the delivery without a retry", async () => {
    const { acts, calls } = activities({}, { kind: "answered", status: 410 });
    expect(await acts.deliverWebhook(ref)).toEqual({ status: "ENDPOINT_DISABLED" });
    expect(calls).toEqual([`gone ep-1 the endpoint answered 410 Gone at ${AT.toISOString()}`]);
  });

  it.each([500, 503, 404, 301, 429])("a %i answer records the attempt and asks Temporal to retry", async (status) => {
    const { acts, calls } = activities({}, { kind: "answered", status });
    const error = await acts.deliverWebhook(ref).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect((error as ApplicationFailure).nonRetryable).toBe(false);
    expect(calls).toEqual([`attempt ${status} endpoint answered HTTP ${status}`]);
  });

  it("no answer records the attempt and retries", async () => {
    const { acts, calls } = activities({}, { kind: "failed", error: "connect ECONNREFUSED" });
    await expect(acts.deliverWebhook(ref)).rejects.toBeInstanceOf(ApplicationFailure);
    expect(calls).toEqual(["attempt null connect ECONNREFUSED"]);
  });

  it("a refused address ends the delivery as FAILED without retrying", async () => {
    const { acts, calls } = activities({}, { kind: "refused", reason: "host h resolves to 10.0.0.1, a private address" });
    expect(await acts.deliverWebhook(ref)).toEqual({ status: "FAILED" });
    expect(calls).toEqual(["finish FAILED host h resolves to 10.0.0.1, a private address"]);
  });

  it("a disabled endpoint stops the delivery without sending", async () => {
    const { acts, calls, sent } = activities({ enabled: false, disabledReason: "disabled by alice" }, { kind: "answered", status: 200 });
    expect(await acts.deliverWebhook(ref)).toEqual({ status: "ENDPOINT_DISABLED" });
    expect(sent).toEqual([]);
    expect(calls).toEqual(["finish ENDPOINT_DISABLED endpoint disabled: disabled by alice"]);
  });

  it("a deleted endpoint stops the delivery without sending", async () => {
    const { acts, calls, sent } = activities(undefined, { kind: "answered", status: 200 });
    expect(await acts.deliverWebhook(ref)).toEqual({ status: "ENDPOINT_DISABLED" });
    expect(sent).toEqual([]);
    expect(calls).toEqual(["finish ENDPOINT_DISABLED endpoint deleted"]);
  });
});

describe("planDeliveries", () => {
  const entry = (tenantId: string, action: string, object = true): OutboxEntry => ({
    id: `audit-${tenantId}-${action}`,
    tenantId,
    objectId: "o-1",
    action,
    actorId: "alice",
    requestId: "req-1",
    result: "SUCCESS",
    details: null,
    occurredAt: AT,
    object: object ? ({ id: "o-1", status: "READY" } as OutboxEntry["object"]) : undefined,
  });
  let n = 0;
  const deps = { objectJson: (o: { id: string; status: string }) => ({ id: o.id, status: o.status }), newId: () => `d-${++n}` };

  it("makes one delivery per subscribed endpoint of the entry's tenant", () => {
    const deliveries = planDeliveries(deps, [entry("acme", "SCAN_PASSED"), entry("other", "SCAN_PASSED")], [
      { tenantId: "acme", endpointId: "all", eventTypes: [] },
      { tenantId: "acme", endpointId: "scans", eventTypes: ["scan.passed"] },
      { tenantId: "acme", endpointId: "uploads", eventTypes: ["upload.completed"] },
    ]);
    expect(deliveries.map((d) => [d.tenantId, d.endpointId, d.eventType])).toEqual([
      ["acme", "all", "scan.passed"],
      ["acme", "scans", "scan.passed"],
    ]);
  });

  it("the payload carries the type, the time of the action and the object", () => {
    const [delivery] = planDeliveries(deps, [entry("acme", "HOLD_PLACED")], [{ tenantId: "acme", endpointId: "all", eventTypes: [] }]);
    expect(delivery!.payload).toEqual({
      type: "hold.placed",
      timestamp: AT.toISOString(),
      data: { object: { id: "o-1", status: "READY" }, auditEntryId: "audit-acme-HOLD_PLACED", actorId: "alice", requestId: "req-1", result: "SUCCESS" },
    });
  });

  it("an object whose row is gone is named by its id", () => {
    const [delivery] = planDeliveries(deps, [entry("acme", "OBJECT_EXPIRED", false)], [{ tenantId: "acme", endpointId: "all", eventTypes: [] }]);
    expect((delivery!.payload as { data: { object: unknown } }).data.object).toEqual({ id: "o-1" });
  });

  it("a signed checkpoint's entry, which concerns no object, is audit_checkpoint.signed with no object and the checkpoint in its details", () => {
    const checkpoint = { tenantId: "acme", sequence: 41, hash: "ab".repeat(32), signedAt: AT, keyId: "key-1", signature: "c2ln" };
    const own = checkpointEntry(checkpoint);
    const outboxEntry: OutboxEntry = { ...own, id: "audit-checkpoint", requestId: null };
    const [delivery] = planDeliveries(deps, [outboxEntry], [{ tenantId: "acme", endpointId: "checkpoints", eventTypes: ["audit_checkpoint.signed"] }]);
    expect(delivery!.payload).toEqual({
      type: "audit_checkpoint.signed",
      timestamp: AT.toISOString(),
      data: {
        object: null,
        auditEntryId: "audit-checkpoint",
        actorId: "system",
        result: "SUCCESS",
        details: { sequence: 41, hash: "ab".repeat(32), keyId: "key-1", signedAt: AT.toISOString(), signature: "c2ln" },
      },
    });
  });
});

describe("webhook secrets", () => {
  it("are whsec_ and the base64 of 24 random bytes, usable by the Standard Webhooks library", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(24);
    expect(() => new Webhook(secret)).not.toThrow();
    expect(newWebhookSecret()).not.toBe(secret);
  });
});
