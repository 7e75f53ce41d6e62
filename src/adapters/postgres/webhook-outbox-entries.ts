import type { EntityManager } from "@mikro-orm/postgresql";
import type { OutboxEntry } from "../../app/webhooks/delivery/port.js";
import { NO_OBJECT_ID } from "../../domain/audit/chain/checkpoint-entry.js";
import { StoredObjectRow } from "./entities/stored-object.js";
import { toStoredObjectView } from "./stored-object-from-row.js";

/** An audit entry that webhooks have not yet been dispatched for. */
export interface AuditOutboxRow {
  id: string;
  tenant_id: string;
  object_id: string;
  action: string;
  actor_id: string;
  request_id: string | null;
  result: string;
  details: Record<string, unknown> | null;
  occurred_at: Date;
  object_snapshot: Record<string, unknown> | null;
}

/** The oldest undispatched entries, locked; SKIP LOCKED: concurrent dispatchers take other rows. */
export async function claimUndispatched(em: EntityManager, limit: number): Promise<AuditOutboxRow[]> {
  return (await em.execute(
    `select id, tenant_id, object_id, action, actor_id, request_id, result, details, occurred_at, object_snapshot
       from audit_entries where webhooks_dispatched_at is null
      order by occurred_at, id limit ? for update skip locked`,
    [limit],
  )) as AuditOutboxRow[];
}

/** The snapshot served only to build the deliveries, so it goes with the dispatch. */
export async function markDispatched(em: EntityManager, ids: string[], at: Date): Promise<void> {
  await em.execute(`update audit_entries set webhooks_dispatched_at = ?, object_snapshot = null where id in (?)`, [at, ids]);
}

/**
 * Entries with their objects: the commit-time snapshot, else the row as it is now (deleted too);
 * none for an entry that concerns no object (a checkpoint's).
 */
export async function withObjects(em: EntityManager, rows: AuditOutboxRow[]): Promise<OutboxEntry[]> {
  const missing = rows.filter((r) => !r.object_snapshot && r.object_id !== NO_OBJECT_ID);
  const current = missing.length
    ? await em.find(StoredObjectRow, { tenantId: { $in: [...new Set(missing.map((r) => r.tenant_id))] }, id: { $in: missing.map((r) => r.object_id) } })
    : [];
  const byKey = new Map(current.map((o) => [`${o.tenantId}/${o.id}`, o]));
  return rows.map((r) => {
    const row = r.object_snapshot ? rowFromSnapshot(r.object_snapshot) : byKey.get(`${r.tenant_id}/${r.object_id}`);
    return {
      id: r.id,
      tenantId: r.tenant_id,
      objectId: r.object_id,
      action: r.action,
      actorId: r.actor_id,
      requestId: r.request_id,
      result: r.result,
      details: r.details,
      occurredAt: new Date(r.occurred_at),
      object: row ? toStoredObjectView(row) : undefined,
    };
  });
}

/** `to_jsonb` of a stored_objects row: column names to property names; dates stay ISO strings. */
function rowFromSnapshot(snapshot: Record<string, unknown>): StoredObjectRow {
  const row: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(snapshot)) row[column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())] = value;
  return row as unknown as StoredObjectRow;
}
