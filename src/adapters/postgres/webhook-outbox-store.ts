import { raw } from "@mikro-orm/core";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { DeliveryEndpoint, FanOutPlan, NewDelivery, OutboxEntry, WebhookOutbox } from "../../app/webhooks/delivery/port.js";
import { NO_OBJECT_ID } from "../../domain/audit/chain/checkpoint-entry.js";
import type { DeliveryRef, DeliveryStatus } from "../../domain/webhooks/delivery.js";
import type { DeliveryCandidate, InFlight } from "../../domain/webhooks/fair-share.js";
import { secretContext, type SecretCipher } from "../webhooks/secret-cipher.js";
import { StoredObjectRow } from "./entities/stored-object.js";
import { WebhookDeliveryRow } from "./entities/webhook-delivery.js";
import { WebhookEndpointRow } from "./entities/webhook-endpoint.js";
import { toStoredObjectView } from "./stored-object-from-row.js";
import { inTransaction, withDatabase } from "./database-work.js";

interface AuditOutboxRow {
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

/**
 * The webhook outbox: audit entries become deliveries, deliveries become workflows, and each
 * delivery's attempts are recorded. Dispatch is one transaction, so an entry is either still
 * undispatched or has all its deliveries.
 */
export class WebhookOutboxStore implements WebhookOutbox {
  constructor(
    private readonly orm: MikroORM,
    private readonly cipher: SecretCipher,
  ) {}

  /**
   * Claims up to `limit` undispatched entries (SKIP LOCKED: concurrent dispatchers take other
   * rows), inserts the deliveries `plan` makes of them (a delivery that exists stays as it is),
   * and marks the entries dispatched. Answers how many entries it claimed.
   */
  async fanOut(limit: number, at: Date, plan: FanOutPlan): Promise<{ claimed: number; deliveries: number }> {
    return inTransaction(this.orm, async (em) => {
      const rows = (await em.execute(
        `select id, tenant_id, object_id, action, actor_id, request_id, result, details, occurred_at, object_snapshot
           from audit_entries where webhooks_dispatched_at is null
          order by occurred_at, id limit ? for update skip locked`,
        [limit],
      )) as AuditOutboxRow[];
      if (rows.length === 0) return { claimed: 0, deliveries: 0 };
      const tenants = [...new Set(rows.map((r) => r.tenant_id))];
      const endpoints = await em.find(WebhookEndpointRow, { tenantId: { $in: tenants }, enabled: true }, { fields: ["id", "tenantId", "eventTypes"] });
      const subscriptions = endpoints.map((e) => ({ tenantId: e.tenantId, endpointId: e.id, eventTypes: e.eventTypes ?? [] }));
      const watched = new Set(subscriptions.map((s) => s.tenantId));
      const entries = await withObjects(em, rows.filter((r) => watched.has(r.tenant_id)));
      const deliveries = plan(entries, subscriptions);
      const inserted = deliveries.length > 0 ? await insertDeliveries(em, deliveries, at) : 0;
      await em.execute(`update audit_entries set webhooks_dispatched_at = ?, object_snapshot = null where id in (?)`, [at, rows.map((r) => r.id)]);
      return { claimed: rows.length, deliveries: inserted };
    });
  }

  /**
   * Deliveries whose workflow is not known to have started, the oldest first, with what their
   * tenants and endpoints have in flight (started, still PENDING); only as many per endpoint and
   * per tenant as could still start, so the read stays small whatever the backlog. `fairClaim`
   * (src/domain/webhooks/fair-share.ts) decides which of them start.
   */
  async unstarted(limits: { perEndpoint: number; perTenant: number }): Promise<{ candidates: DeliveryCandidate[]; inFlight: InFlight }> {
    const rows = await withDatabase(
      this.orm,
      async (em) =>
        (await em.execute(
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
        )) as { id: string; tenant_id: string; endpoint_id: string; endpoint_busy: number; tenant_busy: number }[],
    );
    return {
      candidates: rows.map((r) => ({ tenantId: r.tenant_id, deliveryId: r.id, endpointId: r.endpoint_id })),
      inFlight: {
        byTenant: new Map(rows.map((r) => [r.tenant_id, Number(r.tenant_busy)])),
        byEndpoint: new Map(rows.map((r) => [r.endpoint_id, Number(r.endpoint_busy)])),
      },
    };
  }

  async markStarted(ids: string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await withDatabase(this.orm, (em) => em.nativeUpdate(WebhookDeliveryRow, { id: { $in: ids }, workflowStartedAt: null }, { workflowStartedAt: at }));
  }

  async findDelivery(tenantId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
    return (await withDatabase(this.orm, (em) => em.findOne(WebhookDeliveryRow, { tenantId, id }))) ?? undefined;
  }

  /** With its secrets decrypted: for signing only, never for an API answer. */
  async findEndpoint(tenantId: string, id: string): Promise<DeliveryEndpoint | undefined> {
    const row = await withDatabase(this.orm, (em) => em.findOne(WebhookEndpointRow, { tenantId, id }));
    if (!row) return undefined;
    const context = secretContext(tenantId, id);
    const previous = row.previousSecretCiphertext ? this.cipher.decrypt(row.previousSecretCiphertext, context) : undefined;
    return {
      id: row.id,
      url: row.url,
      enabled: row.enabled,
      disabledReason: row.disabledReason ?? undefined,
      // A plain secret only between migration 0005 and encryptWebhookSecrets.
      secret: row.secretCiphertext ? this.cipher.decrypt(row.secretCiphertext, context) : (row.secret ?? ""),
      ...(previous !== undefined && row.previousSecretExpiresAt ? { previousSecret: previous, previousSecretExpiresAt: new Date(row.previousSecretExpiresAt) } : {}),
    };
  }

  /** One attempt that did not succeed; the delivery stays PENDING for the next one. */
  async recordFailedAttempt(ref: DeliveryRef, statusCode: number | null, error: string, at: Date): Promise<void> {
    await this.settle(ref, { attempts: raw("attempts + 1"), lastStatusCode: statusCode, lastError: error, lastAttemptAt: at });
  }

  async markDelivered(ref: DeliveryRef, statusCode: number, at: Date): Promise<void> {
    await this.settle(ref, {
      status: "DELIVERED" satisfies DeliveryStatus,
      attempts: raw("attempts + 1"),
      lastStatusCode: statusCode,
      lastError: null,
      lastAttemptAt: at,
      deliveredAt: at,
    });
  }

  /** The endpoint answered 410: it is disabled, and this delivery ends with it. */
  async markEndpointGone(ref: DeliveryRef, endpointId: string, reason: string, at: Date): Promise<void> {
    await inTransaction(this.orm, async (em) => {
      await em.nativeUpdate(WebhookEndpointRow, { tenantId: ref.tenantId, id: endpointId }, { enabled: false, disabledReason: reason, updatedAt: at });
      await em.nativeUpdate(
        WebhookDeliveryRow,
        { tenantId: ref.tenantId, id: ref.deliveryId, status: "PENDING" },
        { status: "ENDPOINT_DISABLED", attempts: raw("attempts + 1"), lastStatusCode: 410, lastError: reason, lastAttemptAt: at },
      );
    });
  }

  /**
   * Ends a delivery without an attempt: its endpoint is gone or disabled, its URL is refused, or
   * its retries are spent (no `error`: the last attempt's stays).
   */
  async finish(ref: DeliveryRef, status: Exclude<DeliveryStatus, "PENDING" | "DELIVERED">, error?: string): Promise<void> {
    await this.settle(ref, error === undefined ? { status } : { status, lastError: error });
  }

  private async settle(ref: DeliveryRef, data: Record<string, unknown>): Promise<void> {
    await withDatabase(this.orm, (em) => em.nativeUpdate(WebhookDeliveryRow, { tenantId: ref.tenantId, id: ref.deliveryId, status: "PENDING" }, data));
  }

}

/**
 * Entries with their objects: the commit-time snapshot, else the row as it is now (deleted too);
 * none for an entry that concerns no object (a checkpoint's).
 */
async function withObjects(em: EntityManager, rows: AuditOutboxRow[]): Promise<OutboxEntry[]> {
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

async function insertDeliveries(em: EntityManager, deliveries: NewDelivery[], at: Date): Promise<number> {
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
