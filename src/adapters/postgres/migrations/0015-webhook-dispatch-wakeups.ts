import { Migration } from "@mikro-orm/migrations";

/**
 * Webhook dispatch is driven by new work instead of a poll (docs/architecture.md, webhooks): the
 * database says when there is something to dispatch on the channel `webhook_dispatch`, which the
 * worker LISTENs on (src/adapters/postgres/dispatch-listener.ts) to wake the dispatcher workflow.
 *
 * - An audit entry of a tenant without an enabled endpoint can never become a delivery, so it is
 *   dispatched as it is inserted (BEFORE INSERT: the row is written once, never updated later) and
 *   the fan-out never reads it. This one indexed lookup replaces the one the commit-time snapshot
 *   trigger of migration 0002 made for every entry: the audit insert is a hot path.
 * - Only the remaining entries (tenants with an endpoint) get that commit-time trigger, which takes
 *   the object's snapshot and notifies. NOTIFY is sent at commit, once per distinct payload and
 *   transaction, so a transaction of many entries wakes the dispatcher once per tenant.
 * - A delivery that ends frees a place under the per-endpoint and per-tenant limits: when
 *   deliveries wait for one, the dispatcher is woken to start them.
 */
export class WebhookDispatchWakeups extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function audit_entries_webhooks_unwatched() returns trigger language plpgsql as $$
      begin
        if not exists (select 1 from webhook_endpoints e where e.tenant_id = new.tenant_id and e.enabled) then
          new.webhooks_dispatched_at := now();
        end if;
        return new;
      end
      $$;`);
    // Entries written already dispatched (imports, tests) skip the lookup.
    this.addSql(`
      create trigger audit_entries_webhooks_unwatched before insert on audit_entries
        for each row when (new.webhooks_dispatched_at is null) execute function audit_entries_webhooks_unwatched();`);

    this.addSql(`
      create or replace function audit_entries_object_snapshot() returns trigger language plpgsql as $$
      begin
        update audit_entries a
           set object_snapshot = (select to_jsonb(o) from stored_objects o where o.tenant_id = new.tenant_id and o.id = new.object_id)
         where a.id = new.id;
        perform pg_notify('webhook_dispatch', new.tenant_id);
        return null;
      end
      $$;`);
    this.addSql(`drop trigger audit_entries_object_snapshot on audit_entries;`);
    this.addSql(`
      create constraint trigger audit_entries_object_snapshot after insert on audit_entries
        deferrable initially deferred for each row when (new.webhooks_dispatched_at is null)
        execute function audit_entries_object_snapshot();`);

    // Any waiting delivery, whatever its tenant: the dispatcher's fair share decides which start.
    // One probe of the partial index webhook_deliveries_unstarted.
    this.addSql(`
      create function webhook_deliveries_ended() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from webhook_deliveries where workflow_started_at is null) then
          perform pg_notify('webhook_dispatch', new.tenant_id);
        end if;
        return null;
      end
      $$;`);
    this.addSql(`
      create trigger webhook_deliveries_ended after update of status on webhook_deliveries
        for each row when (old.status = 'PENDING' and new.status <> 'PENDING') execute function webhook_deliveries_ended();`);
  }
}
