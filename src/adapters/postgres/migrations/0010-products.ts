import { Migration } from "@mikro-orm/migrations";

/**
 * Products: the second entity with custom fields, laid out like customers so that the same
 * store, filter compiler and index builder serve it. The sku is an exact list filter (not unique: a reference module, no catalogue rules).
 */
export class Products extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table products (
        id uuid primary key,
        tenant_id text not null,
        sku text not null,
        name text not null,
        price_cents bigint not null check (price_cents >= 0),
        custom_fields jsonb not null default '{}',
        version integer not null default 1,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );`);
    this.addSql(`create index products_tenant_created on products (tenant_id, created_at desc, id desc);`);
    this.addSql(`create index products_tenant_sku on products (tenant_id, sku);`);
    // Equality and membership filters on custom fields (JSONB containment), tenant first.
    this.addSql(`create index products_tenant_custom_fields on products using gin (tenant_id, custom_fields jsonb_path_ops);`);
  }
}
