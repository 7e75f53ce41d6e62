import type { EntityManager, MikroORM, QueryBuilder } from "@mikro-orm/postgresql";
import type { CustomerFields, CustomerExactFilter, CustomerListQuery } from "../../app/customers/port.js";
import type { Cursor } from "../../domain/pagination.js";
import { CustomFieldEntityTableStore, entityListQuery, type EntityTable } from "./custom-field-entity-store.js";
import { CustomerRow } from "./entities/customer.js";

const CUSTOMERS: EntityTable<CustomerFields> = { row: CustomerRow, alias: "c", columns: ["name", "email"] };

/** Customers in PostgreSQL: the reference entity with custom fields in a JSONB column. */
export class CustomerStore extends CustomFieldEntityTableStore<CustomerFields, CustomerExactFilter> {
  constructor(orm: MikroORM) {
    super(orm, CUSTOMERS);
  }
}

/** The list statement, newest first; exported so its plan can be checked against the indexes. */
export function listQuery(em: EntityManager, tenantId: string, query: CustomerListQuery, after: Cursor | undefined, limit: number): QueryBuilder<object> {
  return entityListQuery(em, CUSTOMERS, tenantId, query, after, limit);
}
