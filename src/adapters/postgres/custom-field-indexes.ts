/**
 * Which expression indexes the `indexed` custom fields want, and what to do to get there from the
 * indexes that exist: pure, so that the builder (custom-field-index-builder.ts) decides every pass
 * from persisted state alone (the definitions, its own bookkeeping and `pg_index.indisvalid`), and a
 * pass repeated after a crash does only what is still missing.
 */
import { createHash } from "node:crypto";
import type { FieldDefinition, FieldType } from "../../domain/customfields/definition.js";
import { expressionIndexDdl, foldedIndexDdl } from "./custom-field-index-ddl.js";

/** Entity types whose table this service owns, with their custom fields column. */
interface EntityTable {
  table: string;
  column: string;
}

const ENTITY_TABLES: Readonly<Record<string, EntityTable>> = {
  Customer: { table: "customers", column: "custom_fields" },
  Product: { table: "products", column: "custom_fields" },
};

/** Types with a typed range expression; booleans and JSON are served by the GIN containment index. */
const EXPRESSION_KIND: Partial<Record<FieldType, "num" | "txt">> = {
  NUMBER: "num",
  COMPUTED: "num",
  DATE: "txt",
  STRING: "txt",
  SELECT: "txt",
};

/** Text types also get a trigram index on their folded text, for icontains (custom-field-index-ddl.ts). */
const FOLDED_TYPES: ReadonlySet<FieldType> = new Set(["STRING", "SELECT"]);

/** `customers_cf_num_amount`; long keys are cut and made unique by a hash (PostgreSQL: 63 bytes). */
export function expressionIndexName(table: string, fieldKey: string, kind: "num" | "txt" | "fold"): string {
  const name = `${table}_cf_${kind}_${fieldKey}`;
  if (name.length <= 63) return name;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${name.slice(0, 54)}_${hash}`;
}

export type IndexedField = Pick<FieldDefinition, "entityType" | "fieldKey" | "fieldType">;

/** An index some live indexed definition wants, with the statement that builds it without blocking writes. */
export interface WantedIndex {
  name: string;
  table: string;
  ddl: string;
}

/**
 * The indexes of the given indexed fields, one per name: the expression depends only on the key
 * and its type, and tenant_id leads the index, so tenants with the same field share it. Entity
 * types without a table of this service, and types the GIN index serves, want none.
 */
export function wantedIndexes(fields: readonly IndexedField[]): WantedIndex[] {
  const byName = new Map<string, WantedIndex>();
  for (const field of fields) {
    const target = ENTITY_TABLES[field.entityType];
    const kind = EXPRESSION_KIND[field.fieldType];
    if (!target || !kind) continue;
    const name = expressionIndexName(target.table, field.fieldKey, kind);
    const ddl = expressionIndexDdl(target.table, target.column, field.fieldKey, field.fieldType, name).replace(
      /^CREATE INDEX /,
      "CREATE INDEX CONCURRENTLY ",
    );
    byName.set(name, { name, table: target.table, ddl });
    if (FOLDED_TYPES.has(field.fieldType)) {
      const foldName = expressionIndexName(target.table, field.fieldKey, "fold");
      const foldDdl = foldedIndexDdl(target.table, target.column, field.fieldKey, foldName).replace(/^CREATE INDEX /, "CREATE INDEX CONCURRENTLY ");
      byName.set(foldName, { name: foldName, table: target.table, ddl: foldDdl });
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** An index the builder manages, as its bookkeeping row and the catalog see it. */
export interface ManagedIndex {
  name: string;
  /** `pg_index.indisvalid`; null when the index does not exist. */
  valid: boolean | null;
  /** After a failed build, not before this. */
  retryAt: Date | null;
}

export type IndexStep =
  /** `dropInvalid`: a build that died half-way (a crash, a cancel) left an INVALID index, which serves no query and blocks `IF NOT EXISTS`. */
  | { kind: "build"; name: string; ddl: string; dropInvalid: boolean }
  /** No live definition of any tenant wants it any more. */
  | { kind: "drop"; name: string };

/** Builds of missing or invalid wanted indexes (unless waiting after a failure), then drops of unwanted ones. */
export function planIndexSteps(wanted: readonly WantedIndex[], managed: readonly ManagedIndex[], now: Date): IndexStep[] {
  const state = new Map(managed.map((m) => [m.name, m]));
  const builds: IndexStep[] = [];
  for (const index of wanted) {
    const current = state.get(index.name);
    if (current?.valid === true) continue;
    if (current?.retryAt && current.retryAt > now) continue;
    builds.push({ kind: "build", name: index.name, ddl: index.ddl, dropInvalid: current?.valid === false });
  }
  const wantedNames = new Set(wanted.map((w) => w.name));
  const drops: IndexStep[] = managed.filter((m) => !wantedNames.has(m.name)).map((m) => ({ kind: "drop", name: m.name }));
  return [...builds, ...drops];
}
