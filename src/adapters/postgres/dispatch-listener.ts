import pg from "pg";
import type { Logger } from "../../logger.js";
import { CoalescedCall } from "./coalesced-call.js";

/** The channel migration 0015's triggers notify on: new audit entries to dispatch, a delivery that ended. */
export const WEBHOOK_DISPATCH_CHANNEL = "webhook_dispatch";
/** How its backend shows in pg_stat_activity. */
export const DISPATCH_LISTENER_APPLICATION = "webhook-dispatch-listener";

/** Work that no notification may announce: the catch-up's question, one probe of each partial index. */
const WORK_WAITING = `select exists (select 1 from audit_entries where webhooks_dispatched_at is null)
                          or exists (select 1 from webhook_deliveries where workflow_started_at is null) as waiting`;

export interface DispatchListenerOptions {
  databaseUrl: string;
  /** Wakes the dispatcher; a rejection is retried with the backoff. */
  wake: () => Promise<void>;
  /** How often the listener asks whether work waits anyway (a lost wake-up), and wakes if so. */
  catchUpIntervalMs: number;
  backoff: { initialMs: number; maxMs: number };
  logger: Logger;
}

/**
 * LISTENs for the database's webhook notifications on a connection of its own and wakes the
 * dispatcher for them, coalesced: a burst of commits makes a few wake-ups, not one each. A
 * dropped connection is opened again with backoff; after each (re)connect it wakes once, for
 * whatever was committed while nobody listened.
 */
export class DispatchListener {
  private client?: pg.Client;
  private stopped = false;
  private retryMs: number;
  private reconnect?: NodeJS.Timeout;
  private readonly catchUp: NodeJS.Timeout;
  private readonly waker: CoalescedCall;

  private constructor(private readonly options: DispatchListenerOptions) {
    this.retryMs = options.backoff.initialMs;
    this.waker = new CoalescedCall(options.wake, options.backoff, (error) => options.logger.warn({ err: error }, "webhook dispatcher not woken: trying again"));
    this.catchUp = setInterval(() => void this.catchUpOnce(), options.catchUpIntervalMs);
    this.catchUp.unref();
  }

  static start(options: DispatchListenerOptions): DispatchListener {
    const listener = new DispatchListener(options);
    void listener.connect();
    return listener;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.catchUp);
    clearTimeout(this.reconnect);
    this.waker.stop();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.options.databaseUrl, application_name: DISPATCH_LISTENER_APPLICATION, connectionTimeoutMillis: 5000, keepAlive: true });
    let dropped = false;
    const drop = (error?: unknown) => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) this.client = undefined;
      client.end().catch(() => undefined);
      this.scheduleReconnect(error);
    };
    client.on("notification", () => this.waker.call());
    client.on("error", drop);
    client.on("end", () => drop());
    try {
      await client.connect();
      await client.query(`listen ${WEBHOOK_DISPATCH_CHANNEL}`);
    } catch (error) {
      drop(error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = this.options.backoff.initialMs;
    this.options.logger.info({ channel: WEBHOOK_DISPATCH_CHANNEL }, "listening for webhook dispatch notifications");
    this.waker.call();
  }

  private scheduleReconnect(error: unknown): void {
    if (this.stopped) return;
    this.options.logger.warn({ err: error, retryMs: this.retryMs }, "webhook dispatch listener disconnected: reconnecting");
    this.reconnect = setTimeout(() => void this.connect(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, this.options.backoff.maxMs);
  }

  private async catchUpOnce(): Promise<void> {
    const client = this.client;
    if (!client) return; // the reconnect wakes anyway
    try {
      const { rows } = await client.query<{ waiting: boolean }>(WORK_WAITING);
      if (rows[0]?.waiting) this.waker.call();
    } catch (error) {
      this.options.logger.warn({ err: error }, "webhook dispatch catch-up failed");
    }
  }
}
