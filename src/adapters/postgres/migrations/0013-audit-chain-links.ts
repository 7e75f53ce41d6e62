import { Migration } from "@mikro-orm/migrations";

const GENESIS = String.raw`'\x0000000000000000000000000000000000000000000000000000000000000000'::bytea`;

/**
 * The chain's links move out of audit_entries into a narrow table of their own (docs/audit-chain.md).
 *
 * Migration 0012 sealed an entry by updating it at its writer's commit. Because the chain columns
 * were indexed, that update could not be HOT: it wrote a second version of the row and a new
 * entry into every one of audit_entries' dozen indexes, which cost audited writes about a fifth of
 * their rate. The seal now inserts one small row (tenant, sequence, entry, previous hash, hash)
 * with two index entries, and audit_entries is written once per entry again.
 *
 * `audit_entries_chained` reads an entry with its link; an entry without one is unsealed (written
 * with the chain off, or behind the trigger's back).
 */
export class AuditChainLinks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table audit_chain_links (
        tenant_id text not null,
        sequence bigint not null,
        entry_id uuid not null,
        previous_hash bytea not null,
        hash bytea not null,
        primary key (tenant_id, sequence)
      );`);
    this.addSql(`
      insert into audit_chain_links (tenant_id, sequence, entry_id, previous_hash, hash)
      select tenant_id, chain_sequence, id, chain_previous_hash, chain_hash from audit_entries where chain_sequence is not null;`);
    this.addSql(`create unique index audit_chain_links_entry on audit_chain_links (entry_id);`);
    this.addSql(`drop index audit_entries_tenant_chain;`);
    this.addSql(`drop index audit_entries_tenant_unsealed;`);
    this.addSql(`alter table audit_entries drop column chain_sequence, drop column chain_previous_hash, drop column chain_hash;`);
    this.addSql(`
      create view audit_entries_chained as
      select e.*, l.sequence as chain_sequence, l.previous_hash as chain_previous_hash, l.hash as chain_hash
        from audit_entries e left join audit_chain_links l on l.entry_id = e.id;`);
    this.addSql(`
      create or replace function audit_entries_seal() returns trigger language plpgsql as $$
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
        select l.sequence, l.hash into last_sequence, last_hash
          from audit_chain_links l
         where l.tenant_id = new.tenant_id
         order by l.sequence desc limit 1;
        if not found then
          last_sequence := 0;
          last_hash := ${GENESIS};
          insert into audit_chain_tenants (tenant_id, created_at) values (new.tenant_id, clock_timestamp()) on conflict (tenant_id) do nothing;
        end if;
        insert into audit_chain_links (tenant_id, sequence, entry_id, previous_hash, hash)
        values (new.tenant_id, last_sequence + 1, new.id, last_hash, sha256(last_hash || canonical));
        return null;
      end
      $$;`);
  }
}
