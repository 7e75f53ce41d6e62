import { raw } from "@mikro-orm/core";
import type { EntityManager, MikroORM, QueryBuilder } from "@mikro-orm/postgresql";
import type { Customer, CustomerChanges, CustomerListQuery, CustomerStorePort } from "../../app/customers/port.js";
import type { Cursor } from "../../domain/pagination.js";
import { applyCustomFieldFilter } from "./apply-custom-field-filter.js";
import { CustomerRow } from "./entities/customer.js";
import { withDatabase } from "./database-work.js";
import { keysetAfter, keysetOrderBy } from "./keyset.js";

/**
 * Customers in PostgreSQL: the reference entity with custom fields in a JSONB column. A list is
 * one statement: tenant, exact name/email, the compiled custom field filter, keyset position.
 */
export class CustomerStore implements CustomerStorePort {
  constructor(private readonly orm: MikroORM) {}

  async insert(customer: Customer): Promise<void> {
    await withDatabase(this.orm, (em) => em.insert(CustomerRow, { ...customer }));
  }

  async find(tenantId: string, id: string): Promise<Customer | undefined> {
    const row = await withDatabase(this.orm, (em) => em.findOne(CustomerRow, { tenantId, id }));
    return row ? toCustomer(row) : undefined;
  }

  /**
   * One conditional UPDATE: supplied custom field keys are merged into the stored object by
   * PostgreSQL (`||`), so concurrent updates of different keys both survive; with
   * `expectedVersion` the row changes only at that version. Undefined when no row matched.
   */
  async update(tenantId: string, id: string, changes: CustomerChanges, at: Date): Promise<Customer | undefined> {
    return withDatabase(this.orm, (em) =>
      em.transactional(async (tx) => {
        const where: Record<string, unknown> = { tenantId, id };
        if (changes.expectedVersion !== undefined) where.version = changes.expectedVersion;
        const data: Record<string, unknown> = { version: raw("version + 1"), updatedAt: at };
        if (changes.name !== undefined) data.name = changes.name;
        if (changes.email !== undefined) data.email = changes.email;
        if (changes.customFields !== undefined && Object.keys(changes.customFields).length > 0) {
          data.customFields = raw("custom_fields || ?::jsonb", [JSON.stringify(changes.customFields)]);
        }
        const changed = await tx.nativeUpdate(CustomerRow, where, data);
        if (changed === 0) return undefined;
        // The row stays locked by this transaction: the read sees exactly this update's result.
        return toCustomer(await tx.findOneOrFail(CustomerRow, { tenantId, id }, { refresh: true }));
      }),
    );
  }

  async list(tenantId: string, query: CustomerListQuery, after: Cursor | undefined, limit: number): Promise<Customer[]> {
    const rows = await withDatabase(this.orm, (em) => listQuery(em, tenantId, query, after, limit).getResultList());
    return rows.map(toCustomer);
  }

}

/** The list statement, newest first; exported so its plan can be checked against the indexes. */
export function listQuery(
  em: EntityManager,
  tenantId: string,
  query: CustomerListQuery,
  after: Cursor | undefined,
  limit: number,
): QueryBuilder<CustomerRow> {
  const where: Record<string, unknown> = { tenantId };
  if (query.name !== undefined) where.name = query.name;
  if (query.email !== undefined) where.email = query.email;
  const qb = em.createQueryBuilder(CustomerRow, "c").where({ ...where, ...keysetAfter("createdAt", "desc", after) });
  applyCustomFieldFilter(qb, query.customFilter);
  return qb.orderBy(keysetOrderBy("createdAt", "desc")).limit(limit);
}

function toCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    email: row.email,
    customFields: row.customFields ?? {},
    version: row.version,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
  };
}
