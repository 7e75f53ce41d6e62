import { Migration } from "@mikro-orm/migrations";

/**
 * A hash chain per tenant over the audit trail (docs/audit-chain.md). The database seals every
 * entry as it is inserted, whoever inserts it (the API's statements, ORM flushes, the lifecycle
 * and the sweep), so no writer can forget: a before-insert trigger takes the tenant's head row
 * (one row lock per tenant, held to the end of the writer's transaction), gives the entry the next
 * sequence and hashes its canonical form onto the head's hash.
 *
 * The canonical form is computed by `audit_entry_canonical` from the stored columns; nothing of it
 * is stored, so an edited column shows as a hash that no longer matches. Bookkeeping columns the
 * webhook outbox updates (webhooks_dispatched_at, object_snapshot) are not part of it.
 */
export class AuditHashChain extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table audit_entries add column chain_sequence bigint, add column chain_previous_hash bytea, add column chain_hash bytea;`);
    this.addSql(`
      create table audit_chain_heads (
        tenant_id text primary key,
        sequence bigint not null,
        previous_hash bytea not null,
        hash bytea not null,
        anchored_through bigint not null default 0,
        anchored_at timestamptz,
        updated_at timestamptz not null
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
      begin
        -- The benchmark's switch to measure the chain's cost; nothing else sets it.
        if current_setting('files.audit_chain', true) = 'off' then
          return new;
        end if;
        canonical := convert_to(audit_entry_canonical(new.tenant_id, new.id, new.object_id, new.action, new.actor_id, new.request_id,
          new.correlation_id, new.result, new.occurred_at, new.object_class, new.owner_type, new.owner_id, new.details), 'UTF8');
        loop
          update audit_chain_heads h
             set sequence = h.sequence + 1, previous_hash = h.hash, hash = sha256(h.hash || canonical), updated_at = clock_timestamp()
           where h.tenant_id = new.tenant_id
           returning h.sequence, h.previous_hash, h.hash into new.chain_sequence, new.chain_previous_hash, new.chain_hash;
          exit when found;
          -- The tenant's first entry: create its head at sequence 0, then take it like any other.
          insert into audit_chain_heads (tenant_id, sequence, previous_hash, hash, updated_at)
          values (new.tenant_id, 0, '\\x'::bytea, '\\x0000000000000000000000000000000000000000000000000000000000000000'::bytea, clock_timestamp())
          on conflict (tenant_id) do nothing;
        end loop;
        return new;
      end
      $$;`);
    // Named to fire after audit_entries_fill (triggers fire in name order), which completes the row.
    this.addSql(`create trigger audit_entries_seal before insert on audit_entries for each row execute function audit_entries_seal();`);
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
              insert into audit_chain_heads (tenant_id, sequence, previous_hash, hash, anchored_through, anchored_at, updated_at)
              select current_tenant, position, chain_previous_hash, head, position, now(), now()
                from audit_entries where tenant_id = current_tenant and chain_sequence = position;
            end if;
            current_tenant := entry.tenant_id;
            head := '\\x0000000000000000000000000000000000000000000000000000000000000000'::bytea;
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
          insert into audit_chain_heads (tenant_id, sequence, previous_hash, hash, anchored_through, anchored_at, updated_at)
          select current_tenant, position, chain_previous_hash, head, position, now(), now()
            from audit_entries where tenant_id = current_tenant and chain_sequence = position;
        end if;
      end
      $$;`);
    this.addSql(`create unique index audit_entries_tenant_chain on audit_entries (tenant_id, chain_sequence);`);
  }
}
