import type { MikroORM } from "@mikro-orm/postgresql";
import type { StoreSnapshot, WebhookHold } from "../../observability/metrics.js";

/** In-flight deliveries at which a tenant or an endpoint gets no more started (config.webhooks). */
export interface WebhookShares {
  perTenant: number;
  perEndpoint: number;
}

const SCAN_QUANTILES = [0.5, 0.9, 0.99];

const RECENT_SCANS = `scan_result is not null and (scan_result->>'finishedAt')::timestamptz > now() - interval '24 hours'`;

const QUERIES = {
  scansOverdue: (seconds: number) =>
    `select count(*)::int as count from stored_objects where deleted_at is null and status = 'SCANNING' and uploaded_at < now() - interval '${Math.floor(seconds)} seconds'`,
  storageDeletesFailing: `select case when storage_delete_abandoned_at is null then 'retrying' else 'abandoned' end as state, count(*)::int as count
    from stored_objects where storage_delete_pending and storage_delete_failed_runs > 0 group by 1`,
  objectsByStatus: `select status, count(*)::int as count from stored_objects where deleted_at is null group by status`,
  webhookDeliveries: `select status, count(*)::int as count, coalesce(sum(attempts), 0)::int as attempts
    from webhook_deliveries where created_at > now() - interval '24 hours' group by status`,
  scansByResult: `select case when (scan_result->>'passed')::boolean then 'passed' else 'failed' end as result, count(*)::int as count
    from stored_objects where ${RECENT_SCANS} group by 1`,
  failuresByCheck: `select c->>'name' as check, coalesce(c->>'reason', '') as reason, count(*)::int as count
    from stored_objects, jsonb_array_elements(scan_result->'checks') as c
    where ${RECENT_SCANS} and not (c->>'passed')::boolean group by 1, 2`,
  // Deliveries not started yet, by what holds them: their tenant's or endpoint's share of the
  // webhook worker in flight (src/domain/webhooks/fair-share.ts), or nothing (the next claim takes them).
  webhooksWaiting: ({ perTenant, perEndpoint }: WebhookShares) => `with started as (
      select tenant_id, endpoint_id from webhook_deliveries where workflow_started_at is not null and status = 'PENDING'
    ), by_tenant as (select tenant_id, count(*)::int as n from started group by tenant_id),
    by_endpoint as (select endpoint_id, count(*)::int as n from started group by endpoint_id)
    select case when coalesce(t.n, 0) >= ${Math.floor(perTenant)} then 'tenant_share'
                when coalesce(e.n, 0) >= ${Math.floor(perEndpoint)} then 'endpoint_share' else 'none' end as held,
           count(*)::int as count
      from webhook_deliveries u left join by_tenant t using (tenant_id) left join by_endpoint e using (endpoint_id)
     where u.workflow_started_at is null and u.status = 'PENDING' group by 1`,
  scanSeconds: `select percentile_cont(array[${SCAN_QUANTILES.join(", ")}]) within group
      (order by extract(epoch from ((scan_result->>'finishedAt')::timestamptz - uploaded_at))) as seconds
    from stored_objects where ${RECENT_SCANS} and uploaded_at is not null`,
};

/**
 * What the database gauges show, in one round of aggregate queries. They scan stored_objects
 * without a dedicated index, which is fine at this service's volumes; past millions of rows, move
 * them to counters the worker exposes. `scanOverdueSeconds`: how long SCANNING counts as stuck.
 * Errors stay as the driver threw them: the metrics page only logs them.
 */
export async function readStoreSnapshot(orm: MikroORM, scanOverdueSeconds: number, webhookShares: WebhookShares): Promise<StoreSnapshot> {
  const query = (sql: string): Promise<Record<string, unknown>[]> => orm.em.fork().execute(sql);
  const [objects, scans, failures, seconds, deliveries, overdue, failingDeletes, waiting] = await Promise.all([
    query(QUERIES.objectsByStatus),
    query(QUERIES.scansByResult),
    query(QUERIES.failuresByCheck),
    query(QUERIES.scanSeconds),
    query(QUERIES.webhookDeliveries),
    query(QUERIES.scansOverdue(scanOverdueSeconds)),
    query(QUERIES.storageDeletesFailing),
    query(QUERIES.webhooksWaiting(webhookShares)),
  ]);
  const quantileValues = (seconds[0]?.seconds as number[] | null | undefined) ?? [];
  return {
    objectsByStatus: objects.map((r) => ({ status: String(r.status), count: Number(r.count) })),
    scansByResult: scans.map((r) => ({ result: String(r.result), count: Number(r.count) })),
    failuresByCheck: failures.map((r) => ({ check: String(r.check), reason: String(r.reason), count: Number(r.count) })),
    scanSeconds: quantileValues.map((value, i) => ({ quantile: SCAN_QUANTILES[i], seconds: Number(value) })),
    webhookDeliveries: deliveries.map((r) => ({ status: String(r.status), count: Number(r.count), attempts: Number(r.attempts) })),
    scansOverdue: Number(overdue[0]?.count ?? 0),
    storageDeletesFailing: failingDeletes.map((r) => ({ state: r.state as "retrying" | "abandoned", count: Number(r.count) })),
    webhookDeliveriesWaiting: waiting.map((r) => ({ held: r.held as WebhookHold, count: Number(r.count) })),
  };
}
