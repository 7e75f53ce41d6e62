import type { EntityManager } from "@mikro-orm/postgresql";
import type { NewDelivery } from "../../app/webhooks/delivery/port.js";

/** All in one statement; a delivery that exists stays as it is. Answers how many were new. */
export async function insertDeliveries(em: EntityManager, deliveries: NewDelivery[], at: Date): Promise<number> {
  const records = deliveries.map((d) => ({
    id: d.id,
    tenant_id: d.tenantId,
    endpoint_id: d.endpointId,
    audit_entry_id: d.auditEntryId,
    event_type: d.eventType,
    payload: d.payload,
  }));
  const inserted = (await em.execute(
    `insert into webhook_deliveries (id, tenant_id, endpoint_id, audit_entry_id, event_type, payload, status, attempts, created_at)
     select r.id, r.tenant_id, r.endpoint_id, r.audit_entry_id, r.event_type, r.payload, 'PENDING', 0, ?
       from jsonb_to_recordset(?::jsonb) as r(id uuid, tenant_id text, endpoint_id uuid, audit_entry_id uuid, event_type text, payload jsonb)
     on conflict (tenant_id, endpoint_id, audit_entry_id) do nothing
     returning id`,
    [at, JSON.stringify(records)],
  )) as { id: string }[];
  return inserted.length;
}
