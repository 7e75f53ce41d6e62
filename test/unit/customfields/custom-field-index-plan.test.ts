/**
 * What the index builder does in a pass, decided from persisted state alone: the live indexed
 * definitions, its bookkeeping and `pg_index.indisvalid`. A pass repeated (after a crash, on another
 * replica) plans only what is still missing.
 */
import { describe, expect, it } from "vitest";
import { expressionIndexName, planIndexSteps, wantedIndexes, type ManagedIndex } from "../../../src/adapters/postgres/custom-field-indexes.js";

const now = new Date("2025-01-01T00:00:00Z");
const amount = { entityType: "Customer", fieldKey: "amount", fieldType: "NUMBER" as const };
const city = { entityType: "Customer", fieldKey: "city", fieldType: "STRING" as const };

describe("wantedIndexes", () => {
  it("one concurrent build per name, shared by tenants with the same field", () => {
    const wanted = wantedIndexes([amount, city, { ...amount }]);
    expect(wanted.map((w) => w.name)).toEqual(["customers_cf_fold_city", "customers_cf_num_amount", "customers_cf_txt_city"]);
    expect(wanted[1].ddl).toMatch(/^CREATE INDEX CONCURRENTLY IF NOT EXISTS customers_cf_num_amount ON customers \(tenant_id, /);
  });

  it("a text field also gets a trigram index on its folded text, for icontains", () => {
    const [fold] = wantedIndexes([city]);
    expect(fold.ddl).toBe(
      "CREATE INDEX CONCURRENTLY IF NOT EXISTS customers_cf_fold_city ON customers USING gin " +
        "(casefold((CASE WHEN jsonb_typeof(custom_fields->'city') = 'string' THEN custom_fields->>'city' END) COLLATE pg_unicode_fast) gin_trgm_ops)",
    );
    expect(wantedIndexes([amount]).map((w) => w.name)).toEqual(["customers_cf_num_amount"]);
  });

  it("wants nothing for types the GIN index serves or entity types without a table", () => {
    expect(wantedIndexes([{ ...amount, fieldType: "BOOLEAN" }, { ...amount, entityType: "Order" }])).toEqual([]);
  });

  it("keeps long names within PostgreSQL's 63 bytes", () => {
    expect(expressionIndexName("customers", "a".repeat(64), "txt")).toHaveLength(63);
  });
});

describe("planIndexSteps", () => {
  // The trigram index of a text field is planned like any other; these cases use the btree ones.
  const wanted = wantedIndexes([amount, city]).filter((w) => !w.name.includes("_fold_"));
  const managed = (name: string, valid: boolean | null, retryAt: Date | null = null): ManagedIndex => ({ name, valid, retryAt });

  it("builds what is missing, drops and rebuilds what a killed build left INVALID, leaves valid ones", () => {
    const steps = planIndexSteps(wanted, [managed("customers_cf_num_amount", false), managed("customers_cf_txt_city", null)], now);
    expect(steps).toEqual([
      { kind: "build", name: "customers_cf_num_amount", ddl: wanted[0].ddl, dropInvalid: true },
      { kind: "build", name: "customers_cf_txt_city", ddl: wanted[1].ddl, dropInvalid: false },
    ]);
    expect(planIndexSteps(wanted, [managed("customers_cf_num_amount", true), managed("customers_cf_txt_city", true)], now)).toEqual([]);
  });

  it("waits after a failed build until its retry time", () => {
    const later = new Date(now.getTime() + 1000);
    const steps = planIndexSteps(wanted, [managed("customers_cf_num_amount", null, later), managed("customers_cf_txt_city", null, now)], now);
    expect(steps.map((s) => s.name)).toEqual(["customers_cf_txt_city"]);
  });

  it("drops only its own indexes that no definition wants, after the builds", () => {
    const steps = planIndexSteps(wantedIndexes([{ ...city, fieldType: "DATE" }]), [managed("customers_cf_num_amount", true), managed("customers_cf_txt_city", null)], now);
    expect(steps.map((s) => [s.kind, s.name])).toEqual([
      ["build", "customers_cf_txt_city"],
      ["drop", "customers_cf_num_amount"],
    ]);
  });
});
