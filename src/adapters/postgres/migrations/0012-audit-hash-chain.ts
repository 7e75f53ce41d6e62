import { Migration } from "@mikro-orm/migrations";

const GENESIS = String.raw`'\x0000000000000000000000000000000000000000000000000000000000000000'::bytea`;

/**
 * A hash chain per tenant over the audit trail (docs/audit-chain.md). The database seals every
 * entry its writer inserts, whoever that is (the API's statements, ORM flushes, the lifecycle
 * and the sweep), so no writer can forget: a trigger deferred to the writer's commit takes the
 * tenant's chain lock, gives the entry the sequence after the tenant's last sealed entry and
 * hashes its canonical form onto that entry's hash, in the writer's transaction.
 *
 * The head is the last sealed entry itself (an index probe), not a row updated per entry: a
 * transaction writing many entries would otherwise update one row many times, which PostgreSQL
 * makes quadratic (each update walks the row's versions of the same transaction).
 *
 * The canonical form is computed by `audit_entry_canonical` from the stored columns; nothing of it
 * is stored, so an edited column shows as a hash that no longer matches. Bookkeeping columns the
 * webhook outbox updates (webhooks_dispatched_at, object_snapshot) are not part of it.
 */
export class AuditHashChain extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table audit_entries add column chain_sequence bigint, add column chain_previous_hash bytea, add column chain_hash bytea;`);
    // One row per tenant with a chain: where the schedule looks for heads to sign, and how far
    // this migration chained the entries that existed before it.
    this.addSql(`
      create table audit_chain_tenants (
        tenant_id text primary key,
        anchored_through bigint not null default 0,
        anchored_at timestamptz,
        created_at timestamptz not null
      );`);
    this.addSql(`
      create table audit_checkpoints (
        tenant_id text not null,
        sequence bigint not null,
        hash bytea not null,
        signed_at timestamptz not null,
        key_id text not null,
        signature bytea not null,
        primary key (tenant_id, sequence)
      );`);
    this.addSql(`
      create function audit_entry_canonical(
        tenant_id text, id uuid, object_id uuid, action text, actor_id text, request_id text, correlation_id text,
        result text, occurred_at timestamptz, object_class text, owner_type text, owner_id text, details jsonb
      ) returns text language sql stable parallel safe as $$
        select jsonb_build_array('audit-entry/v1', tenant_id, id, object_id, action, actor_id, request_id, correlation_id, result,
                 to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), object_class, owner_type, owner_id, details)::text
      $$;`);
    this.addSql(`
      create function audit_entries_seal() returns trigger language plpgsql as $$
      declare
        canonical bytea;
        last_sequence bigint;
        last_hash bytea;
      begin
        -- The benchmark's switch to measure the chain's cost; nothing else sets it.
        if current_setting('files.audit_chain', true) = 'off' then
          return null;
        end if;
        -- The row as the transaction leaves it, not as it was first inserted.
        select convert_to(audit_entry_canonical(a.tenant_id, a.id, a.object_id, a.action, a.actor_id, a.request_id, a.correlation_id,
                 a.result, a.occurred_at, a.object_class, a.owner_type, a.owner_id, a.details), 'UTF8')
          into canonical from audit_entries a where a.id = new.id;
        if not found then
          return null; -- inserted and deleted in one transaction: nothing to seal
        end if;
        -- One sealing transaction per tenant at a time, until its commit, which follows at once.
        perform pg_advisory_xact_lock(1635083369, hashtext(new.tenant_id));
        select e.chain_sequence, e.chain_hash into last_sequence, last_hash
          from audit_entries e
         where e.tenant_id = new.tenant_id and e.chain_sequence is not null
         order by e.chain_sequence desc limit 1;
        if not found then
          last_sequence := 0;
          last_hash := ${GENESIS};
          insert into audit_chain_tenants (tenant_id, created_at) values (new.tenant_id, clock_timestamp()) on conflict (tenant_id) do nothing;
        end if;
        update audit_entries
           set chain_sequence = last_sequence + 1, chain_previous_hash = last_hash, chain_hash = sha256(last_hash || canonical)
         where id = new.id;
        return null;
      end
      $$;`);
    this.addSql(`
      do $$
      declare
        entry record;
        current_tenant text := null;
        head bytea;
        position bigint;
      begin
        for entry in select * from audit_entries order by tenant_id, occurred_at, id loop
          if current_tenant is distinct from entry.tenant_id then
            if current_tenant is not null then
              insert into audit_chain_tenants (tenant_id, anchored_through, anchored_at, created_at) values (current_tenant, position, now(), now());
            end if;
            current_tenant := entry.tenant_id;
            head := ${GENESIS};
            position := 0;
          end if;
          position := position + 1;
          update audit_entries
             set chain_sequence = position, chain_previous_hash = head,
                 chain_hash = sha256(head || convert_to(audit_entry_canonical(entry.tenant_id, entry.id, entry.object_id, entry.action,
                   entry.actor_id, entry.request_id, entry.correlation_id, entry.result, entry.occurred_at, entry.object_class,
                   entry.owner_type, entry.owner_id, entry.details), 'UTF8'))
           where id = entry.id
           returning chain_hash into head;
        end loop;
        if current_tenant is not null then
          insert into audit_chain_tenants (tenant_id, anchored_through, anchored_at, created_at) values (current_tenant, position, now(), now());
        end if;
      end
      $$;`);
    // Sealed entries by place in the chain; the few not yet sealed (until their commit) apart.
    this.addSql(`create unique index audit_entries_tenant_chain on audit_entries (tenant_id, chain_sequence) where chain_sequence is not null;`);
    this.addSql(`create index audit_entries_tenant_unsealed on audit_entries (tenant_id, occurred_at, id) where chain_sequence is null;`);
    // Deferred to commit: the chain lock is the transaction's last lock, taken after every row it
    // changes (no lock-order cycle with a writer that updates the object first), and held only
    // for the commit itself. Commit order is chain order.
    this.addSql(`
      create constraint trigger audit_entries_seal after insert on audit_entries
        deferrable initially deferred for each row execute function audit_entries_seal();`);
  }
}
