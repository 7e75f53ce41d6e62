import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, inject, it } from "vitest";
import { webhookWorkflowId } from "../../workflows/activities/webhook-types.js";
import { encryptPlainWebhookSecrets } from "../../src/adapters/postgres/webhook-secret-encryption.js";
import { SecretCipher } from "../../src/adapters/webhooks/secret-cipher.js";
import { parseWebhookSecretKeys } from "../../src/config/webhook-secret-keys.js";
import { csv, png } from "../fixtures/files/index.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { control } from "../support/control.js";
import { reasonOf } from "../support/errors.js";
import { sleep, sql, withDb, withTemporal } from "../support/stack-access.js";
import { initiate, uploadThrough } from "../support/uploads.js";
import { subscribe, WebhookReceiver } from "../support/webhook-receiver.js";

const document = (owner = "doc-1") => ({ objectClass: "GENERAL_DOCUMENT", contentType: "image/png", bytes: png(8, 8), ownerEntityId: owner });

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(answer?: (n: number) => number): Promise<WebhookReceiver> {
  const started = await WebhookReceiver.start(answer);
  receivers.push(started);
  return started;
}

async function deliveriesOf(endpointId: string) {
  return sql<any>("select * from webhook_deliveries where endpoint_id = ? order by created_at", [endpointId]);
}

async function waitForDelivery(endpointId: string, status: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await deliveriesOf(endpointId);
    if (rows.length > 0 && rows.every((r) => r.status === status)) return rows;
    if (Date.now() > deadline) throw new Error(`deliveries not ${status}: ${JSON.stringify(rows)}`);
    await sleep(200);
  }
}

/**
 * Waits until every audit entry of the tenants has been fanned out into deliveries and none of
 * their deliveries is still PENDING: from then on nothing more can arrive for what they did so
 * far, so "nothing else arrived" is a fact, not the end of a wait.
 */
async function drained(tenants: string[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ undispatched, pending }] = await sql<{ undispatched: number; pending: number }>(
      `select (select count(*)::int from audit_entries where tenant_id in (?) and webhooks_dispatched_at is null) as undispatched,
              (select count(*)::int from webhook_deliveries where tenant_id in (?) and status = 'PENDING') as pending`,
      [tenants, tenants],
    );
    if (undispatched === 0 && pending === 0) return;
    if (Date.now() > deadline) throw new Error(`not drained: ${undispatched} audit entries undispatched, ${pending} deliveries pending`);
    await sleep(200);
  }
}

/** A receiver subscribed next to the one under test: an event it gets was dispatched, so one the other did not get was withheld. */
async function sentinel(token: string, eventTypes: string[]): Promise<WebhookReceiver> {
  const target = await receiver();
  await subscribe(token, target, eventTypes);
  return target;
}

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
    const later = await sentinel(token, ["hold.placed"]);
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
    const later = await sentinel(token, ["upload.initiated"]);
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

describe("no event is lost", () => {
  it("events committed while the worker is down are delivered once it is back, each with the object as it was then", async () => {
    const tenant = uniqueTenant("wh");
    const token = await tokenFor(tenant);
    const target = await receiver();
    await subscribe(token, target, ["upload.initiated", "hold.placed"]);
    await control("worker", "kill");
    let objectId: string;
    try {
      objectId = (await initiate(token, document())).body.storedObject.id;
      const held = await rest("POST", `/api/v1/uploads/${objectId}/legal-hold`, { token, body: { reason: "audit" } });
      expect(held.status, JSON.stringify(held.body)).toBe(200);
      // Both events wait in the outbox: none was dispatched, so none can have been sent.
      const waiting = await sql<{ n: number }>("select count(*)::int as n from audit_entries where tenant_id = ? and webhooks_dispatched_at is null", [tenant]);
      expect(waiting[0]!.n).toBe(2);
      expect(target.received).toHaveLength(0);
    } finally {
      await control("worker", "start");
    }
    await target.waitFor((r) => r.length >= 2, 60_000);
    await drained([tenant]);
    const events = Object.fromEntries(target.received.map((r) => [r.payload?.type, r.payload?.data.object]));
    expect(Object.keys(events).sort()).toEqual(["hold.placed", "upload.initiated"]);
    // Dispatched together after the hold, yet each shows the object of its own commit.
    expect(events["upload.initiated"]).toMatchObject({ id: objectId, isLegalHold: false });
    expect(events["hold.placed"]).toMatchObject({ id: objectId, isLegalHold: true, legalHold: { reason: "audit" } });
  });

  it("a delivery whose workflow never started (a crash after the dispatch commit) is started by the next dispatch", async () => {
    const tenant = uniqueTenant("wh");
    const token = await tokenFor(tenant);
    const target = await receiver();
    const endpoint = await subscribe(token, target, ["hold.placed"]);
    const id = randomUUID();
    const payload = { type: "hold.placed", timestamp: new Date().toISOString(), data: { object: { id: "x" } } };
    await sql(
      `insert into webhook_deliveries (id, tenant_id, endpoint_id, audit_entry_id, event_type, payload, status, attempts, created_at)
       values (?, ?, ?, gen_random_uuid(), 'hold.placed', ?::jsonb, 'PENDING', 0, now())`,
      [id, tenant, endpoint.id, JSON.stringify(payload)],
    );
    // The next dispatch: any event of a tenant with an endpoint wakes the dispatcher (this one is
    // not subscribed to, so only the stranded delivery arrives).
    await initiate(token, document());
    await target.waitFor((r) => r.length >= 1);
    expect(target.received.map((r) => [r.id, r.payload?.type])).toEqual([[id, "hold.placed"]]);
    const [row] = await waitForDelivery(endpoint.id, "DELIVERED");
    expect(row.workflow_started_at).not.toBeNull();
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

/**
 * A receiver that holds the first request open (no answer) until `release()`, and answers every
 * later request 200 at once. Every request is recorded, verified, when its body has arrived.
 */
async function holdingReceiver() {
  const received: { id: string; type?: string; verifyError?: string }[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const state = { secret: "" };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const entry: (typeof received)[number] = { id: headers["webhook-id"] ?? "" };
      try {
        entry.type = (new Webhook(state.secret).verify(Buffer.concat(chunks).toString("utf8"), headers) as { type: string }).type;
      } catch (error) {
        entry.verifyError = (error as Error).message;
      }
      received.push(entry);
      // The first request waits for the test; by then its sender is usually dead (ignored).
      if (received.length === 1) void released.then(() => res.writeHead(200).end());
      else res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const close = async () => {
    release();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { received, release, state, url, close };
}

describe("a worker killed during a delivery", () => {
  // The killed attempt is retried once its activity's start-to-close timeout passes (the HTTP
  // timeout + 30 s: 40 s with the test settings), then after WEBHOOK_RETRY_INITIAL_SECONDS (1 s).
  // Nothing below waits for a duration: each step waits for the state the previous one causes.
  it("a POST in flight when the worker dies is retried after the restart with the same webhook-id, and the event is delivered exactly once", { timeout: 240_000 }, async () => {
    const token = await tokenFor(uniqueTenant("wh"));
    const target = await holdingReceiver();
    try {
      const created = await rest("POST", "/api/v1/webhook-endpoints", { token, body: { url: target.url, eventTypes: ["upload.initiated"] } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      target.state.secret = created.body.secret;
      const endpointId = created.body.webhookEndpoint.id;

      await initiate(token, document("in-flight"));
      // The first POST has arrived and is held open: the attempt is in flight in the worker.
      const deadline = Date.now() + 60_000;
      while (target.received.length === 0) {
        if (Date.now() > deadline) throw new Error("the first webhook POST never arrived");
        await sleep(100);
      }
      await control("worker", "kill");
      try {
        // The killed attempt recorded nothing: the POST was in flight, unanswered, when it died.
        const [pending] = await deliveriesOf(endpointId);
        expect(pending).toMatchObject({ status: "PENDING", attempts: 0, last_status_code: null, last_error: null });
      } finally {
        await control("worker", "start");
      }
      target.release();

      // The delivery's workflow ends only once the delivery ended: after it, no attempt can follow.
      const [row] = await deliveriesOf(endpointId);
      const result = await withTemporal((client) => client.workflow.getHandle(webhookWorkflowId(row.id)).result());
      expect(result).toEqual({ status: "DELIVERED" });

      const rows = await deliveriesOf(endpointId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: row.id, event_type: "upload.initiated", status: "DELIVERED", last_status_code: 200 });
      // At least the held POST and its retry, every one of them this event's, validly signed,
      // with the delivery's id: a consumer deduplicating on webhook-id sees it exactly once.
      expect(target.received.length).toBeGreaterThanOrEqual(2);
      expect(target.received.map((r) => r.verifyError)).toEqual(target.received.map(() => undefined));
      expect(new Set(target.received.map((r) => r.type))).toEqual(new Set(["upload.initiated"]));
      expect(new Set(target.received.map((r) => r.id))).toEqual(new Set([row.id]));
    } finally {
      await target.close();
    }
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
    const capturing = await WebhookReceiver.start();
    receivers.push(capturing);
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

/** Answers nothing until closed; counts the requests it holds open right now. */
async function hangingReceiver() {
  const state = { open: 0, total: 0 };
  const server = createServer((req) => {
    state.open++;
    state.total++;
    req.socket.once("close", () => state.open--);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hang`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { state, url, close };
}

describe("deliveries on their own task queue", () => {
  it("with many deliveries hanging in flight, a fresh upload that needs the scan activity still reaches READY; each endpoint holds at most its bound", { timeout: 240_000 }, async () => {
    const token = await tokenFor(uniqueTenant("wh-hang"));
    const hanging = await hangingReceiver();
    try {
      const endpoints: string[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await rest("POST", "/api/v1/webhook-endpoints", { token, body: { url: `${hanging.url}/${i}` } });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        endpoints.push(created.body.webhookEndpoint.id);
      }
      // 12 events x 3 endpoints: more deliveries than the main queue's 20 activity slots, of which
      // the tenant's fair share (WEBHOOK_MAX_IN_FLIGHT_PER_TENANT, a quarter of the webhook worker's 20) hang.
      for (let i = 0; i < 12; i++) await initiate(token, document(`hang-${i}`));
      const deadline = Date.now() + 60_000;
      while (hanging.state.open < 5) {
        if (Date.now() > deadline) throw new Error(`only ${hanging.state.open} deliveries hanging`);
        await sleep(200);
      }

      // CSV is scanned by the scanObject activity, which needs a free activity slot.
      const object = await uploadThrough(token, { objectClass: "IMPORT_FILE", contentType: "text/csv", bytes: csv([["a"], ["1"]]), ownerEntityId: "hang-csv", filename: "hang.csv" });
      expect(object.status).toBe("READY");
      // ...while the deliveries are still in flight: none answered, many held open.
      expect(hanging.state.open).toBeGreaterThanOrEqual(5);
      // The dispatcher turns the events into deliveries a batch at a time: wait until it has them all.
      const deliveries = () => sql<any>("select endpoint_id, status, workflow_started_at from webhook_deliveries where tenant_id = (select tenant_id from webhook_endpoints where id = ?)", [endpoints[0]]);
      let rows = await deliveries();
      while (endpoints.some((id) => rows.filter((r) => r.endpoint_id === id).length <= 10)) {
        if (Date.now() > deadline) throw new Error(`deliveries per endpoint: ${endpoints.map((id) => rows.filter((r) => r.endpoint_id === id).length).join(", ")}`);
        await sleep(200);
        rows = await deliveries();
      }
      expect(rows.filter((r) => r.status !== "PENDING")).toEqual([]);

      // WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT (10): the rest of each endpoint's backlog waits unstarted.
      for (const id of endpoints) {
        const mine = rows.filter((r) => r.endpoint_id === id);
        expect(mine.length).toBeGreaterThan(10);
        expect(mine.filter((r) => r.workflow_started_at !== null).length).toBeLessThanOrEqual(10);
      }
      expect(rows.filter((r) => r.workflow_started_at !== null).length).toBeLessThanOrEqual(5);
      // The delivery workflows run on the webhook task queue, not the scans' one.
      const started = rows.find((r) => r.workflow_started_at !== null);
      const [delivery] = await sql<any>("select id from webhook_deliveries where endpoint_id = ? and workflow_started_at is not null limit 1", [started.endpoint_id]);
      const description = await withTemporal((client, taskQueue) =>
        client.workflow.getHandle(webhookWorkflowId(delivery.id)).describe().then((d) => ({ queue: d.taskQueue, main: taskQueue })),
      );
      expect(description.queue).toBe(`${description.main}-webhooks`);
    } finally {
      await hanging.close();
      // Leave nothing hanging for later tests: the deliveries end at their next attempt.
      for (const id of (await sql<any>("select id from webhook_endpoints where url like ?", [`${hanging.url}%`])).map((r) => r.id)) {
        await sql("update webhook_endpoints set enabled = false where id = ?", [id]);
      }
    }
  });
});

describe("the fair share of the webhook worker per tenant", () => {
  it("while one tenant's endpoints hang with more deliveries than its share, another tenant's delivery still arrives", { timeout: 240_000 }, async () => {
    const hogToken = await tokenFor(uniqueTenant("wh-hog"));
    const hanging = await hangingReceiver();
    try {
      for (let i = 0; i < 10; i++) {
        const created = await rest("POST", "/api/v1/webhook-endpoints", { token: hogToken, body: { url: `${hanging.url}/${i}` } });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
      }
      // 3 events x 10 endpoints: 30 deliveries, more than the webhook worker's 20 slots.
      for (let i = 0; i < 3; i++) await initiate(hogToken, document(`hog-${i}`));
      const deadline = Date.now() + 60_000;
      while (hanging.state.open < 5) {
        if (Date.now() > deadline) throw new Error(`only ${hanging.state.open} deliveries hanging`);
        await sleep(200);
      }

      const token = await tokenFor(uniqueTenant("wh-fair"));
      const target = await receiver();
      const endpoint = await subscribe(token, target, ["upload.initiated"]);
      await initiate(token, document("fair"));
      await target.waitFor((received) => received.length >= 1, 90_000);
      await waitForDelivery(endpoint.id, "DELIVERED");
      // All the while the hanging tenant held no more than its share.
      const [{ started }] = await sql<any>(
        "select count(*)::int as started from webhook_deliveries where endpoint_id in (select id from webhook_endpoints where url like ?) and workflow_started_at is not null",
        [`${hanging.url}%`],
      );
      expect(started).toBeLessThanOrEqual(5);
      // Operators see the rest held back by the share: 30 deliveries, at most 5 started.
      expect(await heldByTenantShare((held) => held >= 25)).toBeGreaterThanOrEqual(25);
    } finally {
      await hanging.close();
      for (const id of (await sql<any>("select id from webhook_endpoints where url like ?", [`${hanging.url}%`])).map((r) => r.id)) {
        await sql("update webhook_endpoints set enabled = false where id = ?", [id]);
      }
    }
  });
});

/** `webhook_deliveries_waiting{held="tenant_share"}` from the API's /metrics, once `enough` or after 25 s (gauges refresh every 10 s). */
async function heldByTenantShare(enough: (held: number) => boolean): Promise<number> {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const page = await (await fetch(`http://127.0.0.1:${inject("stackEnv").METRICS_PORT}/metrics`)).text();
    const line = page.split("\n").find((l) => l.startsWith('webhook_deliveries_waiting{held="tenant_share"}'));
    const held = Number(line?.slice(line.lastIndexOf(" ") + 1) ?? 0);
    if (enough(held) || Date.now() > deadline) return held;
    await sleep(1000);
  }
}
