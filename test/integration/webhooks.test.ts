import { Webhook } from "standardwebhooks";
import { describe, expect, inject, it } from "vitest";
import { encryptPlainWebhookSecrets } from "../../src/adapters/postgres/webhook-secret-encryption.js";
import { SecretCipher } from "../../src/adapters/webhooks/secret-cipher.js";
import { parseWebhookSecretKeys } from "../../src/config/webhook-secret-keys.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { reasonOf } from "../support/errors.js";
import { sql, withDb } from "../support/stack-access.js";
import { initiate, uploadThrough } from "../support/uploads.js";
import { subscribe } from "../support/webhook-receiver.js";
import { document, drained, receiversClosedAfterEach, sentinel, waitForDelivery } from "../support/webhook-deliveries.js";

const receiver = receiversClosedAfterEach();

describe("webhook events of an upload", () => {
  it("an upload to READY sends upload.initiated, upload.completed and scan.passed, signed, with the object as it was", async () => {
    const tenant = uniqueTenant("wh");
    const token = await tokenFor(tenant);
    const target = await receiver();
    const endpoint = await subscribe(token, target);
    expect(endpoint).toMatchObject({ url: target.url, eventTypes: [], enabled: true, disabledReason: "" });
    expect(target.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const object = await uploadThrough(token, document());
    expect(object.status).toBe("READY");
    await target.waitFor((r) => r.length >= 3);
    await drained([tenant]); // nothing else is coming

    expect(target.received.map((r) => r.verifyError)).toEqual([undefined, undefined, undefined]);
    const byType = Object.fromEntries(target.received.map((r) => [r.payload.type, r.payload]));
    expect(Object.keys(byType).sort()).toEqual(["scan.passed", "upload.completed", "upload.initiated"]);
    // Each event carries the object as its transaction committed it, in the JSON API's form.
    expect(byType["upload.initiated"].data.object).toMatchObject({ id: object.id, status: "PENDING_UPLOAD", fileSize: String(document().bytes.length) });
    // complete scanned this PNG inline: completion and scan committed together, READY in both.
    expect(byType["upload.completed"].data.object).toMatchObject({ id: object.id, status: "READY" });
    expect(byType["scan.passed"].data.object).toEqual(object);
    expect(byType["scan.passed"].data.object.isCurrent).toBe(true);
    expect(byType["upload.initiated"].data).toMatchObject({ actorId: "user-1", result: "SUCCESS", auditEntryId: expect.any(String), requestId: expect.any(String) });
    expect(new Date(byType["scan.passed"].timestamp).getTime()).toBeGreaterThanOrEqual(new Date(byType["upload.completed"].timestamp).getTime());

    const rows = await waitForDelivery(endpoint.id, "DELIVERED");
    expect(rows.map((r) => [r.event_type, r.attempts, r.last_status_code]).sort()).toEqual([
      ["scan.passed", 1, 200],
      ["upload.completed", 1, 200],
      ["upload.initiated", 1, 200],
    ]);
    expect(new Set(target.received.map((r) => r.id))).toEqual(new Set(rows.map((r) => r.id)));
  });

  it("an endpoint receives only the event types it subscribed to, and only its own tenant's", async () => {
    const [tenant, other] = [uniqueTenant("wh"), uniqueTenant("wh-other")];
    const token = await tokenFor(tenant);
    const target = await receiver();
    await subscribe(token, target, ["scan.passed"]);
    await uploadThrough(await tokenFor(other), document());
    const object = await uploadThrough(token, document());
    await target.waitFor((r) => r.length >= 1);
    await drained([tenant, other]);
    expect(target.types()).toEqual(["scan.passed"]);
    expect(target.received[0]!.payload.data.object.id).toBe(object.id);
  });

  it("a receiver that fails twice gets the same webhook-id three times, validly signed each time, and the delivery ends DELIVERED", async () => {
    const token = await tokenFor(uniqueTenant("wh"));
    const target = await receiver((n) => (n <= 2 ? 500 : 200));
    const endpoint = await subscribe(token, target, ["upload.initiated"]);
    await initiate(token, document());
    await target.waitFor((r) => r.length >= 3);
    const [delivery] = await waitForDelivery(endpoint.id, "DELIVERED");
    expect(target.received.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(target.received.map((r) => r.id)).toEqual([delivery.id, delivery.id, delivery.id]);
    expect(target.received.map((r) => r.verifyError)).toEqual([undefined, undefined, undefined]);
    expect(target.received.map((r) => r.payload.type)).toEqual(["upload.initiated", "upload.initiated", "upload.initiated"]);
    expect(delivery).toMatchObject({ attempts: 3, last_status_code: 200, status: "DELIVERED" });
    // Backoff on the schedule: WEBHOOK_RETRY_INITIAL_SECONDS, then doubling (1 s, then 2 s with
    // the test settings), measured between arrivals in milliseconds. A retry never comes early
    // (50 ms for the two clocks' reading), and comes late by less than a second, the slack the
    // test stack allows any delivery step.
    const initialMs = Number(inject("stackEnv").WEBHOOK_RETRY_INITIAL_SECONDS) * 1000;
    const toleranceMs = 1000;
    const at = target.received.map((r) => r.receivedAt);
    const gaps = [at[1]! - at[0]!, at[2]! - at[1]!];
    const schedule = [initialMs, 2 * initialMs];
    for (const [i, gap] of gaps.entries()) {
      expect(gap, `retry ${i + 1}: ${gap} ms after the attempt before, scheduled ${schedule[i]} ms (gaps ${gaps.join(", ")})`).toBeGreaterThanOrEqual(schedule[i]! - 50);
      expect(gap, `retry ${i + 1}: ${gap} ms after the attempt before, scheduled ${schedule[i]} ms (gaps ${gaps.join(", ")})`).toBeLessThan(schedule[i]! + toleranceMs);
    }
  });

  it("a receiver answering 410 Gone disables its endpoint, which then receives nothing", async () => {
    const tenant = uniqueTenant("wh");
    const token = await tokenFor(tenant);
    const target = await receiver(() => 410);
    const endpoint = await subscribe(token, target);
    const started = await initiate(token, document());
    await target.waitFor((r) => r.length >= 1);
    const [delivery] = await waitForDelivery(endpoint.id, "ENDPOINT_DISABLED");
    expect(delivery).toMatchObject({ attempts: 1, last_status_code: 410 });

    const got = await rest("GET", `/api/v1/webhook-endpoints/${endpoint.id}`, { token });
    expect(got.body.webhookEndpoint).toMatchObject({ enabled: false, disabledReason: expect.stringContaining("410 Gone") });

    // A later event reaches a sentinel endpoint of the same tenant; the disabled one gets nothing.
    const later = await sentinel(receiver, token, ["hold.placed"]);
    await rest("POST", `/api/v1/uploads/${started.body.storedObject.id}/refresh-upload-url`, { token, body: {} });
    const held = await rest("POST", `/api/v1/uploads/${started.body.storedObject.id}/legal-hold`, { token, body: { reason: "sentinel" } });
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    await later.waitFor((r) => r.length >= 1);
    await drained([tenant]);
    expect(target.received).toHaveLength(1);
  });

  it("enabling a disabled endpoint again resumes delivery of new events", async () => {
    const tenant = uniqueTenant("wh");
    const token = await tokenFor(tenant);
    const target = await receiver();
    const endpoint = await subscribe(token, target, ["upload.initiated"]);
    const off = await rest("PATCH", `/api/v1/webhook-endpoints/${endpoint.id}`, { token, body: { enabled: false } });
    expect(off.body.webhookEndpoint).toMatchObject({ enabled: false, disabledReason: "disabled by user-1" });
    const later = await sentinel(receiver, token, ["upload.initiated"]);
    const whileOff = await initiate(token, document("while-off"));
    // The sentinel got the event the disabled endpoint did not.
    await later.waitFor((r) => r.length >= 1);
    expect(later.received[0]!.payload.data.object.id).toBe(whileOff.body.storedObject.id);
    await drained([tenant]);
    expect(target.received).toHaveLength(0);
    const on = await rest("PATCH", `/api/v1/webhook-endpoints/${endpoint.id}`, { token, body: { enabled: true } });
    expect(on.body.webhookEndpoint).toMatchObject({ enabled: true, disabledReason: "" });
    const started = await initiate(token, document("while-on"));
    await target.waitFor((r) => r.length >= 1);
    expect(target.received[0]!.payload.data.object.id).toBe(started.body.storedObject.id);
  });
});

describe("webhook endpoints through the JSON API", () => {
  it("creates, lists, updates and deletes; the secret is shown only at create", async () => {
    const token = await tokenFor(uniqueTenant("wh"));
    const created = await rest("POST", "/api/v1/webhook-endpoints", { token, body: { url: "http://127.0.0.1:9/a", eventTypes: ["scan.failed"] } });
    expect(created.status).toBe(200);
    const id = created.body.webhookEndpoint.id;
    expect(created.body.secret).toMatch(/^whsec_/);

    const got = await rest("GET", `/api/v1/webhook-endpoints/${id}`, { token });
    expect(got.body.webhookEndpoint).toEqual({ ...created.body.webhookEndpoint });
    expect(JSON.stringify(got.body)).not.toContain("whsec_");

    const patched = await rest("PATCH", `/api/v1/webhook-endpoints/${id}`, { token, body: { eventTypes: ["scan.passed", "hold.placed"] } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.webhookEndpoint).toMatchObject({ url: "http://127.0.0.1:9/a", eventTypes: ["scan.passed", "hold.placed"] });
    const cleared = await rest("PATCH", `/api/v1/webhook-endpoints/${id}`, { token, body: { eventTypes: [] } });
    expect(cleared.body.webhookEndpoint.eventTypes).toEqual([]);

    const second = await rest("POST", "/api/v1/webhook-endpoints", { token, body: { url: "https://hooks.example.com/b" } });
    const page1 = await rest("GET", "/api/v1/webhook-endpoints?pageSize=1", { token });
    expect(page1.body.webhookEndpoints.map((e: any) => e.id)).toEqual([second.body.webhookEndpoint.id]);
    const page2 = await rest("GET", `/api/v1/webhook-endpoints?pageSize=1&pageToken=${page1.body.nextPageToken}`, { token });
    expect(page2.body.webhookEndpoints.map((e: any) => e.id)).toEqual([id]);
    expect(page2.body.nextPageToken).toBe("");

    expect((await rest("DELETE", `/api/v1/webhook-endpoints/${id}`, { token })).status).toBe(200);
    const gone = await rest("GET", `/api/v1/webhook-endpoints/${id}`, { token });
    expect(gone.status).toBe(404);
    expect(reasonOf(gone.body)).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");
  });
});

describe("webhook quotas and secrets (issue #11)", () => {
  it("refuses the endpoint past the tenant's limit with WEBHOOK_ENDPOINT_LIMIT_REACHED", async () => {
    const token = await tokenFor(uniqueTenant("wh-cap"));
    // WEBHOOK_MAX_ENDPOINTS_PER_TENANT: the default, 10.
    const made = await Promise.all(Array.from({ length: 10 }, (_, i) => rest("POST", "/api/v1/webhook-endpoints", { token, body: { url: `https://hooks.example.com/${i}` } })));
    expect(made.map((r) => r.status)).toEqual(made.map(() => 200));
    const over = await rest("POST", "/api/v1/webhook-endpoints", { token, body: { url: "https://hooks.example.com/over" } });
    expect([over.status, over.body.code, reasonOf(over.body)]).toEqual([429, "resource_exhausted", "WEBHOOK_ENDPOINT_LIMIT_REACHED"]);
  });

  it("stores the secret encrypted: the row holds no plain secret", async () => {
    const token = await tokenFor(uniqueTenant("wh-enc"));
    const created = await rest("POST", "/api/v1/webhook-endpoints", { token, body: { url: "https://hooks.example.com/enc" } });
    const secret: string = created.body.secret;
    const [row] = await sql<any>("select * from webhook_endpoints where id = ?", [created.body.webhookEndpoint.id]);
    expect(row.secret).toBeNull();
    expect(row.secret_ciphertext).toMatch(/^v1\.[0-9a-f]{16}\./);
    const everything = JSON.stringify(row);
    for (const leak of [secret, secret.slice(6), Buffer.from(secret.slice(6), "base64").toString("hex")]) expect(everything).not.toContain(leak);
  });

  it("migrate encrypts a plain secret left from before 0005 and clears it; deliveries still verify with that secret", async () => {
    const token = await tokenFor(uniqueTenant("wh-plain"));
    const target = await receiver();
    const endpoint = await subscribe(token, target, ["upload.initiated"]);
    await sql("update webhook_endpoints set secret = ?, secret_ciphertext = null where id = ?", [target.secret, endpoint.id]);
    const keys = parseWebhookSecretKeys(inject("stackEnv"), false);
    const written = await withDb((orm) => encryptPlainWebhookSecrets(orm.em.fork(), new SecretCipher(keys)));
    expect(written).toBeGreaterThanOrEqual(1);
    const [row] = await sql<any>("select secret, secret_ciphertext from webhook_endpoints where id = ?", [endpoint.id]);
    expect(row.secret).toBeNull();
    expect(row.secret_ciphertext).toMatch(/^v1\./);
    expect(row.secret_ciphertext).not.toContain(target.secret.slice(6));
    await initiate(token, document("plain"));
    const [got] = await target.waitFor((r) => r.length >= 1);
    expect(got!.verifyError).toBeUndefined();
  });

  it("a rotation answers a new secret; during the overlap each delivery verifies with the old and with the new one; audited", async () => {
    const token = await tokenFor(uniqueTenant("wh-rot"));
    const target = await receiver();
    const endpoint = await subscribe(token, target, ["upload.initiated"]);
    const old = target.secret;
    const rotated = await rest("POST", `/api/v1/webhook-endpoints/${endpoint.id}:rotate-secret`, { token });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const fresh: string = rotated.body.secret;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    expect(Date.parse(rotated.body.webhookEndpoint.previousSecretExpiresAt)).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);

    // The receiver still knows only the old secret: it verifies. Then the new one verifies the same request.
    const capturing = await receiver();
    capturing.secret = old;
    await rest("PATCH", `/api/v1/webhook-endpoints/${endpoint.id}`, { token, body: { url: capturing.url } });
    await initiate(token, document("rotated"));
    const [got] = await capturing.waitFor((r) => r.length >= 1);
    expect(got!.verifyError).toBeUndefined();
    await waitForDelivery(endpoint.id, "DELIVERED");
    const [endpointRow] = await sql<any>("select secret_ciphertext, previous_secret_ciphertext from webhook_endpoints where id = ?", [endpoint.id]);
    expect(endpointRow.previous_secret_ciphertext).toMatch(/^v1\./);
    expect(got!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(fresh).verify(got!.body, got!.headers)).toEqual(got!.payload);
    expect(new Webhook(old).verify(got!.body, got!.headers)).toEqual(got!.payload);
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 9).toString("base64")}`).verify(got!.body, got!.headers)).toThrow();

    const audit = await sql<any>("select * from webhook_endpoint_audit where endpoint_id = ?", [endpoint.id]);
    expect(audit).toEqual([expect.objectContaining({ action: "SECRET_ROTATED", actor_id: "user-1" })]);
    expect(JSON.stringify(audit)).not.toContain("whsec_");
  });
});
