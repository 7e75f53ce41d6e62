import type { EntityManager } from "@mikro-orm/postgresql";
import type { DeliveryCandidate, InFlight } from "../../domain/webhooks/fair-share.js";

/**
 * Deliveries whose workflow is not known to have started, the oldest first, with what their
 * tenants and endpoints have in flight (started, still PENDING); only as many per endpoint and
 * per tenant as could still start, so the read stays small whatever the backlog.
 */
export async function readUnstarted(
  em: EntityManager,
  limits: { perEndpoint: number; perTenant: number },
): Promise<{ candidates: DeliveryCandidate[]; inFlight: InFlight }> {
  const rows = (await em.execute(
    `with candidates as (
       select d.id, d.tenant_id, d.endpoint_id, d.created_at, b.busy,
              row_number() over (partition by d.tenant_id order by d.created_at, d.id) as tn
         from (
           select d.*, row_number() over (partition by d.endpoint_id order by d.created_at, d.id) as n
             from (select distinct endpoint_id from webhook_deliveries where workflow_started_at is null) e
             cross join lateral (
               select id, tenant_id, endpoint_id, created_at from webhook_deliveries u
                where u.endpoint_id = e.endpoint_id and u.workflow_started_at is null
                order by created_at, id limit ?
             ) d
         ) d
         cross join lateral (
           select count(*)::int as busy from webhook_deliveries f
            where f.endpoint_id = d.endpoint_id and f.workflow_started_at is not null and f.status = 'PENDING'
         ) b
        where d.n + b.busy <= ?
     ), tenants as (
       select t.tenant_id, (select count(*)::int from webhook_deliveries g
                             where g.tenant_id = t.tenant_id and g.workflow_started_at is not null and g.status = 'PENDING') as busy
         from (select distinct tenant_id from candidates) t
     )
     select c.id, c.tenant_id, c.endpoint_id, c.busy as endpoint_busy, t.busy as tenant_busy
       from candidates c join tenants t using (tenant_id)
      where c.tn + t.busy <= ?
      order by c.created_at, c.id`,
    [limits.perEndpoint, limits.perEndpoint, limits.perTenant],
  )) as { id: string; tenant_id: string; endpoint_id: string; endpoint_busy: number; tenant_busy: number }[];
  return {
    candidates: rows.map((r) => ({ tenantId: r.tenant_id, deliveryId: r.id, endpointId: r.endpoint_id })),
    inFlight: {
      byTenant: new Map(rows.map((r) => [r.tenant_id, Number(r.tenant_busy)])),
      byEndpoint: new Map(rows.map((r) => [r.endpoint_id, Number(r.endpoint_busy)])),
    },
  };
}
