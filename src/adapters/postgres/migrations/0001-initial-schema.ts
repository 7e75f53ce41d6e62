import { Migration } from "@mikro-orm/migrations";

/**
 * The initial schema. Every index starts with tenant_id: every query is scoped by tenant, and a
 * tenant's rows then sit together in the index. The one exception is `stored_objects_expiry`:
 * the retention sweep is the only query that runs across tenants, by deadline.
 */
export class InitialSchema extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists btree_gin;`);

    this.addSql(`
      create table stored_objects (
        id uuid primary key,
        tenant_id text not null,
        storage_key text not null,
        status text not null,
        object_class text not null,
        owner_entity_type text not null,
        owner_entity_id text not null,
        original_filename text not null,
        content_type text not null,
        file_size bigint not null,
        checksum_md5 text,
        is_current boolean not null default false,
        legal_hold_reason text,
        legal_hold_placed_by text,
        legal_hold_placed_at timestamptz,
        retention_policy text not null,
        retention_expires_at timestamptz,
        scan_result jsonb,
        workflow_id text not null,
        deleted_at timestamptz,
        delete_reason text,
        storage_delete_pending boolean not null default false,
        uploaded_at timestamptz,
        ready_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );`);
    this.addSql(`create unique index stored_objects_tenant_storage_key on stored_objects (tenant_id, storage_key);`);
    // Listing: newest first with keyset pagination, optionally narrowed to an owner.
    this.addSql(`create index stored_objects_tenant_created on stored_objects (tenant_id, created_at desc, id desc) where deleted_at is null;`);
    this.addSql(`create index stored_objects_tenant_owner on stored_objects (tenant_id, owner_entity_type, owner_entity_id, object_class, created_at desc, id desc) where deleted_at is null;`);
    // Replacement: at most one current file per owner and replaceable class (photos, logos).
    this.addSql(`create unique index stored_objects_one_current on stored_objects (tenant_id, owner_entity_type, owner_entity_id, object_class)
      where is_current and deleted_at is null and object_class in ('USER_PROFILE_PHOTO', 'COMPANY_LOGO', 'CUSTOMER_PHOTO');`);
    // The sweep: live rows whose deadline passed.
    this.addSql(`create index stored_objects_tenant_expiry on stored_objects (tenant_id, retention_expires_at) where deleted_at is null and retention_expires_at is not null;`);
    this.addSql(`create index stored_objects_expiry on stored_objects (retention_expires_at) where deleted_at is null and retention_expires_at is not null;`);
    this.addSql(`create index stored_objects_storage_delete_pending on stored_objects (tenant_id, deleted_at) where storage_delete_pending;`);

    this.addSql(`
      create table upload_sessions (
        id uuid primary key,
        tenant_id text not null,
        object_id uuid not null,
        initiated_by text not null,
        presign_expires_at timestamptz not null,
        expected_content_type text not null,
        expected_file_size bigint not null,
        content_md5 text,
        content_sha256 text,
        policy_snapshot jsonb not null,
        completed_at timestamptz,
        created_at timestamptz not null
      );`);
    this.addSql(`create index upload_sessions_tenant_object on upload_sessions (tenant_id, object_id, created_at desc);`);

    this.addSql(`
      create table audit_entries (
        id uuid primary key,
        tenant_id text not null,
        object_id uuid not null,
        action text not null,
        actor_id text not null,
        request_id text,
        result text not null,
        details jsonb,
        occurred_at timestamptz not null
      );`);
    this.addSql(`create index audit_entries_tenant_object on audit_entries (tenant_id, object_id, occurred_at, id);`);

    this.addSql(`
      create table custom_field_definitions (
        id text primary key,
        tenant_id text not null,
        entity_type text not null,
        field_key text not null,
        field_label text not null,
        description text,
        field_type text not null,
        is_required boolean not null default false,
        display_order integer not null default 0,
        default_strategy text not null default 'STATIC',
        default_value text,
        computed_formula text,
        default_rules jsonb not null default '[]',
        validation jsonb not null default '{}',
        validation_rules jsonb not null default '[]',
        ui_config jsonb not null default '{}',
        is_active boolean not null default true,
        indexed boolean not null default false,
        version integer not null default 1,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        deleted_at timestamptz
      );`);
    // docs/decisions.md: a deleted key can be defined again, so uniqueness holds among live rows only.
    this.addSql(`create unique index custom_field_definitions_live_key on custom_field_definitions (tenant_id, entity_type, field_key) where deleted_at is null;`);
    this.addSql(`create index custom_field_definitions_tenant_entity on custom_field_definitions (tenant_id, entity_type, display_order) where deleted_at is null;`);

    this.addSql(`
      create table custom_field_definition_audit (
        id uuid primary key,
        tenant_id text not null,
        definition_id text not null,
        action text not null,
        actor_id text not null,
        request_id text,
        old_version integer,
        new_version integer,
        changes jsonb not null,
        occurred_at timestamptz not null
      );`);
    this.addSql(`create index custom_field_definition_audit_tenant_definition on custom_field_definition_audit (tenant_id, definition_id, occurred_at);`);

    this.addSql(`
      create table customers (
        id uuid primary key,
        tenant_id text not null,
        name text not null,
        email text not null,
        custom_fields jsonb not null default '{}',
        version integer not null default 1,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );`);
    this.addSql(`create index customers_tenant_created on customers (tenant_id, created_at desc, id desc);`);
    this.addSql(`create index customers_tenant_name on customers (tenant_id, name);`);
    this.addSql(`create index customers_tenant_email on customers (tenant_id, email);`);
    // Equality and membership filters on custom fields (JSONB containment), tenant first.
    this.addSql(`create index customers_tenant_custom_fields on customers using gin (tenant_id, custom_fields jsonb_path_ops);`);
  }
}
