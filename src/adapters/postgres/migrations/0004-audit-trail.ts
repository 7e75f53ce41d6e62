import { Migration } from "@mikro-orm/migrations";

/**
 * The audit trail as something to query across a tenant's whole history.
 *
 * Each entry keeps the class and owner of its object, so the filters still work after the object
 * row stops mattering, and a correlation id that ties together what one cause produced. A BEFORE
 * INSERT trigger fills them from the object row for every writer (the ORM inserts and the
 * one-statement complete): class and owner never change, so copying them is exact.
 *
 * One index per filter, each ending in (occurred_at, id) so a filtered page in either order is an
 * index range scan whatever the table's size (`npm run bench` shows the plans at 10 million rows).
 */
export class AuditTrail extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table audit_entries add column correlation_id text, add column object_class text, add column owner_type text, add column owner_id text;`);
    this.addSql(`
      update audit_entries a
         set correlation_id = coalesce(a.request_id, 'entry:' || a.id),
             object_class = o.object_class, owner_type = o.owner_entity_type, owner_id = o.owner_entity_id
        from stored_objects o
       where o.tenant_id = a.tenant_id and o.id = a.object_id;`);
    this.addSql(`update audit_entries set correlation_id = coalesce(request_id, 'entry:' || id) where correlation_id is null;`);
    this.addSql(`alter table audit_entries alter column correlation_id set not null;`);
    this.addSql(`
      create function audit_entries_fill() returns trigger language plpgsql as $$
      begin
        new.correlation_id := coalesce(new.correlation_id, new.request_id, 'entry:' || new.id);
        if new.object_class is null then
          select o.object_class, o.owner_entity_type, o.owner_entity_id into new.object_class, new.owner_type, new.owner_id
            from stored_objects o where o.tenant_id = new.tenant_id and o.id = new.object_id;
        end if;
        return new;
      end
      $$;`);
    this.addSql(`create trigger audit_entries_fill before insert on audit_entries for each row execute function audit_entries_fill();`);

    this.addSql(`create index audit_entries_tenant_time on audit_entries (tenant_id, occurred_at, id);`);
    this.addSql(`create index audit_entries_tenant_actor on audit_entries (tenant_id, actor_id, occurred_at, id);`);
    this.addSql(`create index audit_entries_tenant_action on audit_entries (tenant_id, action, occurred_at, id);`);
    this.addSql(`create index audit_entries_tenant_owner on audit_entries (tenant_id, owner_type, owner_id, occurred_at, id);`);
    this.addSql(`create index audit_entries_tenant_class on audit_entries (tenant_id, object_class, occurred_at, id);`);
    this.addSql(`create index audit_entries_tenant_failures on audit_entries (tenant_id, occurred_at, id) where result = 'FAILURE';`);
    this.addSql(`create index audit_entries_tenant_correlation on audit_entries (tenant_id, correlation_id, occurred_at, id);`);

    // Definition audit pages are keyset-paged by (occurred_at, id).
    this.addSql(`drop index custom_field_definition_audit_tenant_definition;`);
    this.addSql(`create index custom_field_definition_audit_tenant_definition on custom_field_definition_audit (tenant_id, definition_id, occurred_at, id);`);
  }
}
