/**
 * What the webhook tests share: receivers closed after each test, and the deliveries table read
 * until the dispatch has settled.
 */
import { afterEach } from "vitest";
import { png } from "../fixtures/files/index.js";
import { sleep, sql } from "./stack-access.js";
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
