import { Migration } from "@mikro-orm/migrations";

/**
 * The expression indexes the worker manages for `indexed` custom fields (custom-field-index-
 * builder.ts): one row per index it was ever asked for, so it drops only its own indexes once no
 * definition wants them, and waits longer after each failed build. Whether an index is ready is
 * not stored: `pg_index.indisvalid` says it.
 *
 * The partial index serves the builder's question "which fields of any tenant are indexed", the
 * one query across tenants, so it does not lead with tenant_id.
 */
export class CustomFieldIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table custom_field_indexes (
        index_name text primary key,
        table_name text not null,
        failures integer not null default 0,
        retry_at timestamptz,
        last_error text,
        built_at timestamptz,
        created_at timestamptz not null default now()
      );`);
    this.addSql(
      `create index custom_field_definitions_indexed on custom_field_definitions (entity_type, field_key, field_type) where indexed and deleted_at is null;`,
    );
  }
}
