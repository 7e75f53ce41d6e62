import { raw } from "@mikro-orm/core";
import type { EntityManager, EntityName, MikroORM, QueryBuilder } from "@mikro-orm/postgresql";
import type {
  CustomFieldEntity,
  CustomFieldEntityChanges,
  CustomFieldEntityQuery,
  CustomFieldEntityCatalog,
} from "../../app/entities/port.js";
import type { CallScope } from "../../domain/call-scope.js";
import type { Cursor } from "../../domain/pagination.js";
import { applyCustomFieldFilter } from "./apply-custom-field-filter.js";
import { inCallTransaction, withDatabase } from "./database-work.js";
import { keysetAfter, keysetOrderBy } from "./keyset.js";

/**
 * An entity table with custom fields in a JSONB column `custom_fields`, next to `id`, `tenant_id`,
 * `version`, `created_at` and `updated_at`; its row class has the entity's property names.
 */
export interface EntityTable<F> {
  row: EntityName<object>;
  /** Query alias, also in the SQL of list plans. */
  alias: string;
  /** The entity's own columns (property names), copied between row and entity as they are. */
  columns: readonly (keyof F & string)[];
}

type Row = Record<string, unknown>;

/**
 * Any entity with custom fields in PostgreSQL. An update is one conditional UPDATE that merges
 * the supplied custom field keys into the stored object (`||`), so concurrent updates of
 * different keys both survive; a list is one statement: tenant, exact filters, the compiled
 * custom field filter, keyset position.
 */
export class CustomFieldEntityTableStore<F extends object, X extends object> implements CustomFieldEntityCatalog<F, X> {
  constructor(
    private readonly orm: MikroORM,
    private readonly table: EntityTable<F>,
  ) {}

  async insert(entity: CustomFieldEntity<F>, call?: CallScope): Promise<void> {
    const insert = (em: EntityManager) => em.insert(this.table.row, { ...entity });
    await (call?.remainingMs() === undefined ? withDatabase(this.orm, insert) : inCallTransaction(this.orm, call, insert));
  }

  async find(tenantId: string, id: string): Promise<CustomFieldEntity<F> | undefined> {
    const row = await withDatabase(this.orm, (em) => em.findOne(this.table.row, { tenantId, id }));
    return row ? this.toEntity(row as Row) : undefined;
  }

  /** With `expectedVersion` the row changes only at that version. Undefined when no row matched. */
  async update(tenantId: string, id: string, changes: CustomFieldEntityChanges<F>, at: Date, call?: CallScope): Promise<CustomFieldEntity<F> | undefined> {
    return inCallTransaction(this.orm, call, async (tx) => {
      const where: Row = { tenantId, id };
      if (changes.expectedVersion !== undefined) where.version = changes.expectedVersion;
      const data: Row = { version: raw("version + 1"), updatedAt: at };
      for (const column of this.table.columns) {
        if (changes[column] !== undefined) data[column] = changes[column];
      }
      if (changes.customFields !== undefined && Object.keys(changes.customFields).length > 0) {
        data.customFields = raw("custom_fields || ?::jsonb", [JSON.stringify(changes.customFields)]);
      }
      const changed = await tx.nativeUpdate(this.table.row, where, data);
      if (changed === 0) return undefined;
      // The row stays locked by this transaction: the read sees exactly this update's result.
      return this.toEntity((await tx.findOneOrFail(this.table.row, { tenantId, id }, { refresh: true })) as Row);
    });
  }

  async list(tenantId: string, query: CustomFieldEntityQuery<X>, after: Cursor | undefined, limit: number): Promise<CustomFieldEntity<F>[]> {
    const rows = await withDatabase(this.orm, (em) => entityListQuery(em, this.table, tenantId, query, after, limit).getResultList());
    return rows.map((row) => this.toEntity(row as Row));
  }

  private toEntity(row: Row): CustomFieldEntity<F> {
    const own = Object.fromEntries(this.table.columns.map((column) => [column, row[column]])) as F;
    return {
      ...own,
      id: row.id as string,
      tenantId: row.tenantId as string,
      customFields: (row.customFields as Record<string, unknown> | null) ?? {},
      version: row.version as number,
      createdAt: new Date(row.createdAt as Date),
      updatedAt: new Date(row.updatedAt as Date),
    };
  }
}

/** The list statement, newest first; exported so that its plan can be checked against the indexes. */
export function entityListQuery<F, X>(
  em: EntityManager,
  table: EntityTable<F>,
  tenantId: string,
  query: CustomFieldEntityQuery<X>,
  after: Cursor | undefined,
  limit: number,
): QueryBuilder<object> {
  const { customFilter, ...exact } = query;
  const where: Row = { tenantId };
  for (const [column, value] of Object.entries(exact)) if (value !== undefined) where[column] = value;
  const qb = em.createQueryBuilder(table.row, table.alias).where({ ...where, ...keysetAfter("createdAt", "desc", after) });
  applyCustomFieldFilter(qb, customFilter);
  return qb.orderBy(keysetOrderBy("createdAt", "desc")).limit(limit);
}
