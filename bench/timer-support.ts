/** What both modes of the timers group share: expiry waits, lags, histories, RSS samples. */
import { Client, Connection } from "@temporalio/client";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Config } from "../src/config/config.js";
import { baseline, figure, type Figure } from "./figure.js";
import { mean } from "./stats.js";
import { sleep } from "./support.js";

/** How long after the last deadline an object may still be live before the group gives up. */
export const EXPIRY_GRACE_MS = 180_000;
/** Temporal server defaults (limit.historyCount.error, limit.historySize.error). */
const TEMPORAL_HISTORY_EVENTS_LIMIT = 51_200;
const TEMPORAL_HISTORY_BYTES_LIMIT = 50 * 1024 * 1024;

/** Resolves once no object of `tenant` is live; throws when one outlives its deadline by the grace. */
export async function waitForExpiry(orm: MikroORM, tenant: string, count: number): Promise<void> {
  const sql = "select count(*)::int as left, max(retention_expires_at) as last from stored_objects where tenant_id = ? and deleted_at is null";
  for (;;) {
    const [row] = await orm.em.fork().execute<{ left: number; last: Date | null }[]>(sql, [tenant]);
    if (row.left === 0) return;
    if (row.last && Date.now() > new Date(row.last).getTime() + EXPIRY_GRACE_MS) {
      throw new Error(`${row.left} of ${count} objects were not deleted ${EXPIRY_GRACE_MS / 1000} s after their deadline`);
    }
    await sleep(1000);
  }
}

/** deleted_at − retention_expires_at of every object of `tenant` (s), in deadline order. */
export async function expiryLags(orm: MikroORM, tenant: string): Promise<{ lags: number[]; workflowIds: string[] }> {
  const rows = await orm.em.fork().execute<{ lag: string; workflow_id: string }[]>(
    "select extract(epoch from deleted_at - retention_expires_at) as lag, workflow_id from stored_objects where tenant_id = ? order by retention_expires_at, id",
    [tenant],
  );
  return { lags: rows.map((r) => Number(r.lag)), workflowIds: rows.map((r) => r.workflow_id) };
}

export interface Histories {
  events: number[];
  bytes: number[];
}

export async function temporalClient(config: Config): Promise<Client> {
  const connection = await Connection.connect({ address: config.temporal.address });
  return new Client({ connection, namespace: config.temporal.namespace });
}

/** History length and size of each workflow, from describe (running or closed alike). */
export async function histories(client: Client, workflowIds: string[]): Promise<Histories> {
  const described = await Promise.all(workflowIds.map((id) => client.workflow.getHandle(id).describe()));
  return { events: described.map((d) => d.historyLength), bytes: described.map((d) => d.historySize ?? NaN) };
}

/** `count` items spread evenly over `items` (first and last included). */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.round((i * (items.length - 1)) / (count - 1))]);
}

/** The worker's RSS twice a second, with when it was read, so a phase's peak can be picked out. */
export function rssSampler(readRss: () => number | undefined) {
  const samples: { at: number; mb: number }[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const mb = readRss();
      if (mb !== undefined) samples.push({ at: Date.now(), mb });
      await sleep(500);
    }
  })();
  return {
    /** Highest sample taken in [from, to); NaN when none was. */
    peak(from = 0, to = Infinity): number {
      const inside = samples.filter((s) => s.at >= from && s.at < to).map((s) => s.mb);
      return inside.length === 0 ? NaN : Math.max(...inside);
    },
    async stop(): Promise<void> {
      running = false;
      await loop;
    },
  };
}

/** History length and size per object against Temporal's default limits. */
export function historyFigures(history: Histories, label: string, notes: string): Figure[] {
  return [
    figure(`Temporal history per object${label}`, mean(history.events), "events", baseline("Temporal default limit", TEMPORAL_HISTORY_EVENTS_LIMIT, "events"), notes),
    figure(
      `Temporal history size per object${label}`,
      mean(history.bytes) / 1000,
      "KB",
      baseline("Temporal default limit", TEMPORAL_HISTORY_BYTES_LIMIT / 1000, "KB"),
      notes,
    ),
  ];
}
