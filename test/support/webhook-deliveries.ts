/**
 * What the webhook tests share: receivers closed after each test, and the deliveries table read
 * until the dispatch has settled.
 */
import { readFileSync } from "node:fs";
import { temporal } from "@temporalio/proto";
import path from "node:path";
import { afterEach, inject } from "vitest";
import { webhookDispatcherId } from "../../workflows/activities/webhook-types.js";
import { png } from "../fixtures/files/index.js";
import { sleep, sql, withTemporal } from "./stack-access.js";
import { subscribe, WebhookReceiver } from "./webhook-receiver.js";

/** A small valid upload of a class every webhook test may use. */
export const document = (owner = "doc-1") => ({ objectClass: "GENERAL_DOCUMENT", contentType: "image/png", bytes: png(8, 8), ownerEntityId: owner });

/** Starts receivers (`answer`: the status for the n-th request) that the test file closes after each test. */
export function receiversClosedAfterEach(): (answer?: (n: number) => number) => Promise<WebhookReceiver> {
  const receivers: WebhookReceiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  return async (answer) => {
    const started = await WebhookReceiver.start(answer);
    receivers.push(started);
    return started;
  };
}

export async function deliveriesOf(endpointId: string) {
  return sql<any>("select * from webhook_deliveries where endpoint_id = ? order by created_at", [endpointId]);
}

export async function waitForDelivery(endpointId: string, status: string, timeoutMs = 30_000) {
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
export async function drained(tenants: string[], timeoutMs = 60_000): Promise<void> {
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
export async function sentinel(receiver: () => Promise<WebhookReceiver>, token: string, eventTypes: string[]): Promise<WebhookReceiver> {
  const target = await receiver();
  await subscribe(token, target, eventTypes);
  return target;
}

/**
 * What the stack knows about an endpoint's deliveries that did not arrive, for a failed wait's
 * message (CI keeps no logs): its rows, the outbox, the dispatcher workflow's state and pending
 * activities, and the worker's log lines about webhooks or at warning and above.
 */
export async function dispatchDiagnosis(endpointId: string): Promise<string> {
  const rows = await deliveriesOf(endpointId);
  const [outbox] = await sql<{ undispatched: number; unstarted: number }>(
    `select (select count(*)::int from audit_entries where webhooks_dispatched_at is null) as undispatched,
            (select count(*)::int from webhook_deliveries where workflow_started_at is null) as unstarted`,
  );
  const dispatcher = await withTemporal(async (client, taskQueue) => {
    const handle = client.workflow.getHandle(webhookDispatcherId(taskQueue));
    const { status, runId, historyLength, raw } = await handle.describe();
    const pending = (raw.pendingActivities ?? []).map((a) => ({ type: a.activityType?.name, state: a.state, attempt: a.attempt, failure: a.lastFailure?.message }));
    // The run's last events: whether the wake-up arrived, and what the rounds since did.
    const events = ((await handle.fetchHistory()).events ?? []).slice(-15).map((e) => {
      const at = e.eventTime?.seconds ? new Date(Number(e.eventTime.seconds) * 1000 + Math.floor((e.eventTime.nanos ?? 0) / 1e6)).toISOString() : "";
      return `${at} ${temporal.api.enums.v1.EventType[e.eventType ?? 0]?.replace("EVENT_TYPE_", "")}`;
    });
    return { status: status.name, runId, historyLength, pending, events };
  }).catch((error: unknown) => String(error));
  const log = readFileSync(path.join(inject("logDir"), "worker.log"), "utf8")
    .split("\n")
    .filter((line) => /webhook|dispatch|"level":(4|5|6)0/.test(line))
    .slice(-20);
  return [`deliveries: ${JSON.stringify(rows)}`, `outbox: ${JSON.stringify(outbox)}`, `dispatcher: ${JSON.stringify(dispatcher)}`, "worker log:", ...log].join("\n");
}
