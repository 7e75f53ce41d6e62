/**
 * Webhook deliveries when things go wrong: the worker killed with events waiting or a POST in
 * flight, endpoints that hang, one tenant's deliveries beyond its share. Alone on the stack
 * (vitest.config.ts): it kills the worker every other file runs on and fills the webhook worker.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { describe, expect, inject, it } from "vitest";
import { webhookWorkflowId } from "../../workflows/activities/webhook-types.js";
import { csv } from "../fixtures/files/index.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { control } from "../support/control.js";
import { sleep, sql, withTemporal } from "../support/stack-access.js";
import { initiate, uploadThrough } from "../support/uploads.js";
import { subscribe } from "../support/webhook-receiver.js";
import { deliveriesOf, dispatchDiagnosis, document, drained, receiversClosedAfterEach, waitForDelivery } from "../support/webhook-deliveries.js";

const receiver = receiversClosedAfterEach();

describe("no event is lost", () => {
  it("events committed while the worker is down are delivered once it is back, each with the object as it was then", async () => {
    const tenant = uniqueTenant("wh");
    const token = await tokenFor(tenant);
    const target = await receiver();
    const { id: endpointId } = await subscribe(token, target, ["upload.initiated", "hold.placed"]);
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
    await target.waitFor((r) => r.length >= 2, 60_000, () => dispatchDiagnosis(endpointId));
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
    await target.waitFor((r) => r.length >= 1, undefined, () => dispatchDiagnosis(endpoint.id));
    expect(target.received.map((r) => [r.id, r.payload?.type])).toEqual([[id, "hold.placed"]]);
    const [row] = await waitForDelivery(endpoint.id, "DELIVERED");
    expect(row.workflow_started_at).not.toBeNull();
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
