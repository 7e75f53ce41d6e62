import { Migration } from "@mikro-orm/migrations";

/**
 * Webhooks. `audit_entries` is the outbox: an entry is written in the transaction of its state
 * change, so an event exists exactly when the change committed; the dispatcher fans undispatched
 * entries out into `webhook_deliveries` (one per subscribed endpoint, its id being the
 * `webhook-id`) and marks them dispatched in one transaction.
 */
export class Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table webhook_endpoints (
        id uuid primary key,
        tenant_id text not null,
        url text not null,
        event_types text[] not null default '{}',
        secret text not null,
        enabled boolean not null default true,
        disabled_reason text,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );`);
    this.addSql(`create index webhook_endpoints_tenant_created on webhook_endpoints (tenant_id, created_at desc, id desc);`);

    this.addSql(`
      create table webhook_deliveries (
        id uuid primary key,
        tenant_id text not null,
        endpoint_id uuid not null,
        audit_entry_id uuid not null,
        event_type text not null,
        payload jsonb not null,
        status text not null default 'PENDING',
        attempts integer not null default 0,
        last_status_code integer,
        last_error text,
        last_attempt_at timestamptz,
        workflow_started_at timestamptz,
        created_at timestamptz not null,
        delivered_at timestamptz
      );`);
    // One delivery per endpoint and event, whatever the dispatcher retries.
    this.addSql(`create unique index webhook_deliveries_tenant_endpoint_entry on webhook_deliveries (tenant_id, endpoint_id, audit_entry_id);`);
    // The second outbox: deliveries whose workflow is not known to have started (a crash between
    // the commit and the start). Across tenants, like the retention sweep's index.
    this.addSql(`create index webhook_deliveries_unstarted on webhook_deliveries (created_at) where workflow_started_at is null;`);

    // Entries written before webhooks existed count as dispatched. A constant default is kept in
    // the catalog (no table rewrite); dropping it makes new entries start undispatched (null).
    this.addSql(`alter table audit_entries add column webhooks_dispatched_at timestamptz default '1970-01-01T00:00:00Z';`);
    this.addSql(`alter table audit_entries alter column webhooks_dispatched_at drop default;`);
    // The dispatcher's queue, across tenants; it shrinks to nothing as entries are dispatched.
    this.addSql(`create index audit_entries_webhooks_pending on audit_entries (occurred_at, id) where webhooks_dispatched_at is null;`);

    // The stored object as its transaction committed it, for the event payload. A deferred
    // trigger runs at commit, after every change of the transaction (the SCAN_PASSED entry is
    // written before the object becomes current), and only for tenants with an enabled endpoint.
    // The dispatcher clears it once the entry is dispatched.
    this.addSql(`alter table audit_entries add column object_snapshot jsonb;`);
    this.addSql(`
      create function audit_entries_object_snapshot() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from webhook_endpoints e where e.tenant_id = new.tenant_id and e.enabled) then
          update audit_entries a
             set object_snapshot = (select to_jsonb(o) from stored_objects o where o.tenant_id = new.tenant_id and o.id = new.object_id)
           where a.id = new.id;
        end if;
        return null;
      end
      $$;`);
    this.addSql(`
      create constraint trigger audit_entries_object_snapshot after insert on audit_entries
        deferrable initially deferred for each row execute function audit_entries_object_snapshot();`);
  }
}
