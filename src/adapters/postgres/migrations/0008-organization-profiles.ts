import { Migration } from "@mikro-orm/migrations";

/**
 * One organization profile per tenant, keyed by the tenant id: rules and formulas read it as
 * `organization`. A tenant without a row has the default profile (the API answers it, never 404).
 */
export class OrganizationProfiles extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table organization_profiles (
      tenant_id text primary key,
      slug text not null default '',
      company_name text not null default '',
      company_abbreviation text not null default '',
      modules jsonb not null default '[]',
      accounting_type text not null default '',
      custom_fields jsonb not null default '{}',
      version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );`);
    // Not about profiles, but needed from the same release on: the trigram index that serves the
    // Unicode-aware icontains (custom-field-index-ddl.ts, foldedIndexDdl). pg_trgm is a trusted
    // extension, so the database owner may create it.
    this.addSql("create extension if not exists pg_trgm;");
  }
}
