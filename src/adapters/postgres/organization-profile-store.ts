import type { MikroORM } from "@mikro-orm/postgresql";
import type { OrganizationProfiles } from "../../app/organization/port.js";
import type { OrganizationProfile, OrganizationProfileChanges } from "../../domain/organization/profile.js";
import { withDatabase } from "./database-work.js";

const COLUMNS: Record<keyof OrganizationProfileChanges, string> = {
  slug: "slug",
  companyName: "company_name",
  companyAbbreviation: "company_abbreviation",
  modules: "modules",
  accountingType: "accounting_type",
  customFields: "custom_fields",
};
const JSON_COLUMNS = new Set(["modules", "custom_fields"]);

/** Organization profiles in PostgreSQL, one row per tenant (migration 0008). */
export class OrganizationProfileStore implements OrganizationProfiles {
  constructor(private readonly orm: MikroORM) {}

  async find(tenantId: string): Promise<OrganizationProfile | undefined> {
    const rows = await withDatabase(this.orm, (em) => em.execute<ProfileRow[]>("select * from organization_profiles where tenant_id = ?", [tenantId]));
    return rows[0] ? toProfile(rows[0]) : undefined;
  }

  /** One statement: insert the first profile or write the given columns over the stored one. */
  async upsert(tenantId: string, changes: OrganizationProfileChanges, at: Date): Promise<OrganizationProfile> {
    const given = Object.entries(changes).filter(([, value]) => value !== undefined) as [keyof OrganizationProfileChanges, unknown][];
    const columns = given.map(([key]) => COLUMNS[key]);
    const values = given.map(([key, value]) => (JSON_COLUMNS.has(COLUMNS[key]) ? JSON.stringify(value) : value));
    const placeholders = columns.map((column) => (JSON_COLUMNS.has(column) ? "?::jsonb" : "?"));
    const sets = columns.map((column) => `${column} = excluded.${column}`);
    const sql = `insert into organization_profiles (tenant_id, created_at, updated_at${columns.map((c) => `, ${c}`).join("")})
      values (?, ?, ?${placeholders.map((p) => `, ${p}`).join("")})
      on conflict (tenant_id) do update set ${[...sets, "version = organization_profiles.version + 1", "updated_at = excluded.updated_at"].join(", ")}
      returning *`;
    const rows = await withDatabase(this.orm, (em) => em.execute<ProfileRow[]>(sql, [tenantId, at, at, ...values]));
    return toProfile(rows[0]!);
  }
}

interface ProfileRow {
  tenant_id: string;
  slug: string;
  company_name: string;
  company_abbreviation: string;
  modules: string[];
  accounting_type: string;
  custom_fields: Record<string, unknown>;
  version: number;
}

function toProfile(row: ProfileRow): OrganizationProfile {
  return {
    id: row.tenant_id,
    slug: row.slug,
    companyName: row.company_name,
    companyAbbreviation: row.company_abbreviation,
    modules: row.modules,
    accountingType: row.accounting_type,
    customFields: row.custom_fields,
    version: row.version,
  };
}
