import { Migration } from "@mikro-orm/migrations";

const GENESIS = String.raw`'\x0000000000000000000000000000000000000000000000000000000000000000'::bytea`;

/**
 * Writers of one tenant no longer flush the WAL one after another (docs/audit-chain.md).
 *
 * The seal holds the tenant's chain lock until its commit ends, and a synchronous commit ends
 * after the WAL flush: each writer waited for the previous one's disk write, none shared a flush.
 * Now a seal that had to wait for the lock (another writer of the tenant held it, so more are
 * likely queued) commits without waiting for the flush, releasing the lock at once, when its
 * session promises to wait for the flush itself after the commit
 * (`files.audit_commit = flush-after`: the API's and worker's pools, audited-commit.ts). The
 * session learns that it must from a notice sent during the commit, before the commit's answer.
 * A seal that found the lock free, and any session without the promise (psql, tools), commits
 * synchronously as before. The rest of the function is 0013's.
 */
export class AuditCommitFlushAfter extends Migration {
  override async up(): Promise<void> {
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
        if not pg_try_advisory_xact_lock(1635083369, hashtext(new.tenant_id)) then
          perform pg_advisory_xact_lock(1635083369, hashtext(new.tenant_id));
          if current_setting('files.audit_commit', true) = 'flush-after' then
            perform set_config('synchronous_commit', 'off', true);
            raise notice 'files.audit_commit: committed before the flush';
          end if;
        end if;
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
