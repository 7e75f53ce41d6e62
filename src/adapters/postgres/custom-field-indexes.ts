import { createHash } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { ExpressionIndexPort } from "../../app/customfields/port.js";
import type { FieldDefinition, FieldType } from "../../domain/customfields/definition.js";
import { expressionIndexDdl } from "./custom-field-filter-sql.js";
import { withDatabase } from "./database-work.js";

/** Entity types whose table this service owns, with their custom fields column. */
export interface EntityTable {
  table: string;
  column: string;
}

export const ENTITY_TABLES: Readonly<Record<string, EntityTable>> = {
  Customer: { table: "customers", column: "custom_fields" },
};

/** Types with a typed range expression; booleans and JSON are served by the GIN containment index. */
const EXPRESSION_KIND: Partial<Record<FieldType, "num" | "txt">> = {
  NUMBER: "num",
  COMPUTED: "num",
  DATE: "txt",
  STRING: "txt",
  SELECT: "txt",
};

/** `customers_cf_num_amount`; long keys are cut and made unique by a hash (PostgreSQL: 63 bytes). */
export function expressionIndexName(table: string, fieldKey: string, kind: "num" | "txt"): string {
  const name = `${table}_cf_${kind}_${fieldKey}`;
  if (name.length <= 63) return name;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${name.slice(0, 54)}_${hash}`;
}

/**
 * Builds the index of an `indexed` field on its entity table, shared by every tenant (the
 * expression depends only on the key and type; tenant_id leads the index). CONCURRENTLY, so
 * writes to the table go on while it builds; a build that failed half-way leaves an invalid
 * index, which is dropped and built again.
 */
export class CustomFieldIndexes implements ExpressionIndexPort {
  constructor(
    private readonly orm: MikroORM,
    private readonly tables: Readonly<Record<string, EntityTable>> = ENTITY_TABLES,
  ) {}

  async ensureFor(def: Pick<FieldDefinition, "entityType" | "fieldKey" | "fieldType" | "indexed">): Promise<void> {
    const target = this.tables[def.entityType];
    const kind = EXPRESSION_KIND[def.fieldType];
    if (!def.indexed || !target || !kind) return;
    const name = expressionIndexName(target.table, def.fieldKey, kind);
    const ddl = expressionIndexDdl(target.table, target.column, def.fieldKey, def.fieldType, name).replace(
      /^CREATE INDEX /,
      "CREATE INDEX CONCURRENTLY ",
    );
    await withDatabase(this.orm, async (em) => {
      const connection = em.getConnection();
      await connection.execute(ddl);
      const state = await connection.execute<{ valid: boolean }[]>(
        "select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = ?",
        [name],
      );
      if (state[0]?.valid === false) {
        await connection.execute(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
        await connection.execute(ddl);
      }
    });
  }
}
