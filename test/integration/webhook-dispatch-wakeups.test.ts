/**
 * Webhook dispatch is driven by new work, not a poll: the database notifies on commit
 * (migration 0015), the worker's listener wakes the deployment's dispatcher workflow, which makes
 * rounds while there is work and otherwise waits without a timer. Nothing runs on an idle stack.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ScheduleNotFoundError, type Client } from "@temporalio/client";
import { Worker } from "@temporalio/worker";
import { afterEach, describe, expect, it } from "vitest";
import pg from "pg";
import { DISPATCH_LISTENER_APPLICATION, DispatchListener, WEBHOOK_DISPATCH_CHANNEL } from "../../src/adapters/postgres/dispatch-listener.js";
import { createLogger } from "../../src/logger.js";
import { ensureIntervalSchedule } from "../../src/adapters/temporal/ensure-schedule.js";
import { DISPATCHER_INPUT, RETIRED_DISPATCH_SCHEDULE_ID } from "../../src/adapters/temporal/webhook-dispatcher-client.js";
import { replayOptions } from "../support/replay-options.js";
import {
  WEBHOOK_DISPATCHER_ROUNDS,
  WEBHOOK_DISPATCHER_WAKE,
  WEBHOOK_DISPATCHER_WORKFLOW,
  webhookDispatcherId,
  type WebhookDispatcherInput,
} from "../../workflows/activities/webhook-types.js";
import { png } from "../fixtures/files/index.js";
import { tokenFor, uniqueTenant } from "../support/clients.js";
import { control } from "../support/control.js";
import { historyFixtureJson } from "../support/history-fixtures.js";
import { HISTORIES_DIR } from "../support/history-recording.js";
import { sleep, sql, stackConfig, withTemporal } from "../support/stack-access.js";
import { initiate, uploadThrough } from "../support/uploads.js";
import { subscribe, WebhookReceiver } from "../support/webhook-receiver.js";

const document = () => ({ objectClass: "GENERAL_DOCUMENT", contentType: "image/png", bytes: png(8, 8), ownerEntityId: "doc-1" });

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(): Promise<WebhookReceiver> {
  const started = await WebhookReceiver.start();
  receivers.push(started);
  return started;
}

/** A tenant with an endpoint subscribed to `eventTypes`, and its receiver. */
async function watchedTenant(eventTypes: string[]): Promise<{ tenant: string; token: string; target: WebhookReceiver; endpointId: string }> {
  const tenant = uniqueTenant("wake");
  const token = await tokenFor(tenant);
  const target = await receiver();
  const endpoint = await subscribe(token, target, eventTypes);
  return { tenant, token, target, endpointId: endpoint.id };
}

const suite = stackConfig();
const dispatcherId = webhookDispatcherId(suite.temporal.taskQueue);

/** The dispatcher's current run and its history length (reading it adds nothing to it), and its rounds so far. */
async function dispatcher(client: Client, workflowId = dispatcherId) {
  const handle = client.workflow.getHandle(workflowId);
  const description = await handle.describe();
  return { runId: description.runId, status: description.status.name, historyLength: description.historyLength, rounds: await handle.query<number>(WEBHOOK_DISPATCHER_ROUNDS) };
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await sleep(200);
  }
}

describe("webhook dispatch woken by new work", () => {
  it("an event of a tenant with an endpoint reaches its receiver with no dispatch schedule", async () => {
    await withTemporal(async (client) => {
      await expect(client.schedule.getHandle(RETIRED_DISPATCH_SCHEDULE_ID).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    });
    const { token, target } = await watchedTenant(["upload.initiated"]);
    const started = await initiate(token, document());
    await target.waitFor((r) => r.length >= 1);
    expect(target.received.map((r) => [r.payload?.type, r.payload?.data.object.id])).toEqual([["upload.initiated", started.body.storedObject.id]]);
    expect((await withTemporal((client) => dispatcher(client))).status).toBe("RUNNING");
  });

  it("on an idle stack the dispatcher makes no step, while tenants without an endpoint write audit entries", { timeout: 120_000 }, async () => {
    const unwatched = await tokenFor(uniqueTenant("unwatched"));
    // The test listens too: a window counts when the database sent no wake-up in it. Other files'
    // objects may still write entries of tenants with endpoints (their retention timers): such a
    // window is skipped.
    const listener = new pg.Client({ connectionString: suite.databaseUrl });
    await listener.connect();
    let notifications = 0;
    listener.on("notification", () => notifications++);
    await listener.query(`listen ${WEBHOOK_DISPATCH_CHANNEL}`);
    const waiting = async () => (await sql<{ n: number }>("select count(*)::int as n from webhook_deliveries where workflow_started_at is null"))[0]!.n;
    try {
      for (let window = 1; ; window++) {
        notifications = 0;
        const waitingBefore = await waiting();
        const before = await withTemporal((client) => dispatcher(client));
        const objects = [await uploadThrough(unwatched, document()), await uploadThrough(unwatched, document())];
        // Dispatched as they were written: the fan-out never reads them.
        const undispatched = await sql<{ n: number }>("select count(*)::int as n from audit_entries where object_id in (?) and webhooks_dispatched_at is null", [objects.map((o) => o.id)]);
        expect(undispatched[0]!.n).toBe(0);
        await sleep(3000);
        const after = await withTemporal((client) => dispatcher(client));
        // With deliveries waiting to start, the listener's catch-up (every
        // WEBHOOK_DISPATCH_CATCH_UP_SECONDS) may have woken it: the next window cannot meet one.
        const catchUpPossible = waitingBefore + (await waiting()) > 0 && after.historyLength !== before.historyLength;
        if (notifications === 0 && !catchUpPossible) {
          expect(after).toEqual(before);
          return;
        }
        if (window >= 10) throw new Error(`no idle window in ${window} tries: ${notifications} notifications in the last`);
      }
    } finally {
      await listener.end();
    }
  });

  it("a burst of events is delivered in far fewer rounds than events", { timeout: 120_000 }, async () => {
    // Several tenants, each within its in-flight share (WEBHOOK_MAX_IN_FLIGHT_PER_TENANT, 5): no
    // delivery waits for another to end, so the rounds are the wake-ups' alone.
    const perTenant = 5;
    const tenants = await Promise.all(Array.from({ length: 8 }, () => watchedTenant(["upload.initiated"])));
    const events = tenants.length * perTenant;
    const before = await withTemporal((client) => dispatcher(client));
    // The burst commits while the worker (listener and dispatcher) is stopped, as it would while
    // a round runs; its notifications wait in the listener's socket.
    await control("worker", "pause");
    try {
      await Promise.all(tenants.flatMap(({ token }) => Array.from({ length: perTenant }, () => initiate(token, document()))));
    } finally {
      await control("worker", "resume");
    }
    await Promise.all(tenants.map(({ target }) => target.waitFor((r) => r.length >= perTenant, 60_000)));
    const after = await withTemporal((client) => dispatcher(client));
    const rounds = after.rounds - before.rounds;
    expect(new Set(tenants.flatMap(({ target }) => target.received.map((r) => r.id))).size).toBe(events);
    expect(rounds).toBeGreaterThan(0);
    expect(rounds, `${rounds} rounds for ${events} events`).toBeLessThanOrEqual(events / 4);
  });

  it("a listener whose connection is terminated reconnects, and events are delivered again", { timeout: 120_000 }, async () => {
    const listeners = () => sql<{ pid: number }>("select pid from pg_stat_activity where application_name = ?", [DISPATCH_LISTENER_APPLICATION]);
    const old = (await listeners()).map((r) => r.pid);
    expect(old.length).toBeGreaterThan(0);
    await sql("select pg_terminate_backend(pid) from pg_stat_activity where application_name = ?", [DISPATCH_LISTENER_APPLICATION]);
    await until("a new listener connection", listeners, (rows) => rows.length > 0 && rows.every((r) => !old.includes(r.pid)));
    const { token, target } = await watchedTenant(["upload.initiated"]);
    await initiate(token, document());
    await target.waitFor((r) => r.length >= 1);
  });

  it("the listener wakes once it is connected, and its catch-up wakes for a delivery no notification announced", { timeout: 60_000 }, async () => {
    const { tenant, endpointId } = await watchedTenant(["hold.placed"]);
    let wakes = 0;
    const listener = DispatchListener.start({
      databaseUrl: suite.databaseUrl,
      wake: async () => {
        wakes++;
      },
      catchUpIntervalMs: 200,
      backoff: { initialMs: 50, maxMs: 50 },
      logger: createLogger("silent", "test"),
    });
    // A delivery written behind the outbox's back (as after a crash between commit and start): no trigger notifies for it.
    const id = randomUUID();
    try {
      await until("the wake-up after connecting", async () => wakes, (n) => n >= 1);
      await sql(
        `insert into webhook_deliveries (id, tenant_id, endpoint_id, audit_entry_id, event_type, payload, status, attempts, created_at, workflow_started_at)
         values (?, ?, ?, gen_random_uuid(), 'hold.placed', '{}'::jsonb, 'PENDING', 0, now(), null)`,
        [id, tenant, endpointId],
      );
      const connected = wakes;
      await until("a catch-up wake-up", async () => wakes, (n) => n > connected);
    } finally {
      await listener.stop();
      await sql("delete from webhook_deliveries where id = ?", [id]);
    }
  });

  it("the former dispatch schedule, when this deployment owns it, is deleted by its worker at start", { timeout: 180_000 }, async () => {
    await ensureIntervalSchedule(suite.temporal.address, suite.temporal.namespace, {
      scheduleId: RETIRED_DISPATCH_SCHEDULE_ID,
      workflowType: "webhookDispatch",
      taskQueue: suite.webhooks.taskQueue,
      intervalSeconds: 3600,
      args: [{ batchSize: 200, maxBatches: 50 }],
      owner: suite.temporal.taskQueue,
    });
    await control("worker", "kill");
    await control("worker", "start");
    await withTemporal(async (client) => {
      await expect(client.schedule.getHandle(RETIRED_DISPATCH_SCHEDULE_ID).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    });
    // And the restarted worker's listener delivers.
    const { token, target } = await watchedTenant(["upload.initiated"]);
    await initiate(token, document());
    await target.waitFor((r) => r.length >= 1);
  });

  it("continues as new after its round limit, carrying its count, and its history replays", { timeout: 120_000 }, async () => {
    await withTemporal(async (client) => {
      const workflowId = `webhook-dispatcher-continue-${process.pid}`;
      const input: WebhookDispatcherInput = { ...DISPATCHER_INPUT, maxRounds: 2, woken: false, roundsBefore: 0 };
      const first = await client.workflow.start(WEBHOOK_DISPATCHER_WORKFLOW, { workflowId, taskQueue: suite.webhooks.taskQueue, args: [input] });
      try {
        for (const round of [1, 2, 3]) {
          await first.signal(WEBHOOK_DISPATCHER_WAKE);
          await until(`round ${round}`, () => dispatcher(client, workflowId), (d) => d.rounds >= round);
        }
        const now = await dispatcher(client, workflowId);
        expect(now.runId).not.toBe(first.firstExecutionRunId);
        expect(now.rounds).toBe(3);
        const firstRun = client.workflow.getHandle(workflowId, first.firstExecutionRunId);
        expect((await firstRun.describe()).status.name).toBe("CONTINUED_AS_NEW");
        const history = await firstRun.fetchHistory();
        await Worker.runReplayHistory(await replayOptions("dispatcher"), history, workflowId);
        if (process.env.RECORD_HISTORIES === "1") {
          mkdirSync(HISTORIES_DIR, { recursive: true });
          writeFileSync(path.join(HISTORIES_DIR, "webhook-dispatcher-continued.json"), historyFixtureJson(history));
        }
      } finally {
        await client.workflow.getHandle(workflowId).terminate("test over");
      }
    });
  });
});
