/**
 * A rotated secret's overlap: deliveries carry a signature with the new secret and one with the
 * old until the overlap ends (Standard Webhooks: several space-separated `v1,` entries, any of
 * which verifies), then the new one alone.
 */
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { WebhookDeliveryDeps } from "../../../src/app/webhooks/delivery/deps.js";
import type { OutgoingWebhook } from "../../../src/app/webhooks/delivery/port.js";
import { newWebhookSecret, signatureHeaders } from "../../../src/adapters/webhooks/webhook-signing.js";
import { overlapEnd, signingSecrets } from "../../../src/domain/webhooks/signing-secrets.js";
import { createWebhookActivities } from "../../../workflows/activities/webhook-activities.js";

const ROTATED_AT = new Date("2026-05-01T12:00:00Z");
const OLD = newWebhookSecret();
const NEW = newWebhookSecret();
const rotated = { secret: NEW, previousSecret: OLD, previousSecretExpiresAt: overlapEnd(ROTATED_AT, 24 * 3600) };

/** verify() checks the timestamp against the clock: headers made at "now". */
function verifies(secret: string, secrets: string[]): boolean {
  const body = JSON.stringify({ type: "scan.passed" });
  try {
    new Webhook(secret).verify(body, signatureHeaders(secrets, "msg_1", new Date(), body));
    return true;
  } catch {
    return false;
  }
}

describe("signingSecrets", () => {
  it("signs with both during the overlap and with the new one after it", () => {
    expect(overlapEnd(ROTATED_AT, 24 * 3600)).toEqual(new Date("2026-05-02T12:00:00Z"));
    expect(signingSecrets(rotated, ROTATED_AT)).toEqual([NEW, OLD]);
    expect(signingSecrets(rotated, new Date("2026-05-02T11:59:59.999Z"))).toEqual([NEW, OLD]);
    expect(signingSecrets(rotated, new Date("2026-05-02T12:00:00Z"))).toEqual([NEW]);
    expect(signingSecrets({ secret: NEW }, ROTATED_AT)).toEqual([NEW]);
  });

  it("each secret alone verifies the two-signature header; a third does not", () => {
    const both = signingSecrets(rotated, ROTATED_AT);
    expect([verifies(NEW, both), verifies(OLD, both), verifies(newWebhookSecret(), both)]).toEqual([true, true, false]);
    const after = signingSecrets(rotated, new Date("2026-05-03T00:00:00Z"));
    expect([verifies(NEW, after), verifies(OLD, after)]).toEqual([true, false]);
  });
});

describe("deliverWebhook after a rotation", () => {
  async function deliveredSignature(at: Date): Promise<string> {
    const sent: OutgoingWebhook[] = [];
    const outbox = {
      findDelivery: async () => ({ id: "d-1", tenantId: "acme", endpointId: "ep-1", status: "PENDING", payload: { type: "scan.passed" } }),
      findEndpoint: async () => ({ id: "ep-1", url: "https://hooks.example/in", enabled: true, ...rotated }),
      markDelivered: async () => undefined,
    } as unknown as WebhookDeliveryDeps["outbox"];
    const acts = createWebhookActivities({
      outbox,
      send: async (webhook) => (sent.push(webhook), { kind: "answered", status: 200 }),
      sign: signatureHeaders,
      objectJson: (o) => o,
      startDelivery: async () => undefined,
      maxInFlightPerEndpoint: 10,
      maxInFlightPerTenant: 5,
      newId: () => "id",
      now: () => at,
    });
    await acts.deliverWebhook({ tenantId: "acme", deliveryId: "d-1" });
    return sent[0]!.headers["webhook-signature"]!;
  }

  it("carries two v1 signatures in the overlap, one after", async () => {
    const during = await deliveredSignature(new Date("2026-05-01T13:00:00Z"));
    expect(during.split(" ")).toHaveLength(2);
    expect(during.split(" ").every((s) => s.startsWith("v1,"))).toBe(true);
    expect((await deliveredSignature(new Date("2026-05-02T13:00:00Z"))).split(" ")).toHaveLength(1);
  });
});
