/** The customer store the customer use cases need, in domain terms (src/adapters/postgres). */
import type { ParsedFilter } from "../../domain/customfields/filters.js";
import type { Cursor } from "../../domain/pagination.js";

export interface Customer {
  id: string;
  tenantId: string;
  name: string;
  email: string;
  customFields: Record<string, unknown>;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface CustomerChanges {
  expectedVersion?: number;
  name?: string;
  email?: string;
  /** Validated values of the supplied keys only; merged over the stored ones. */
  customFields?: Record<string, unknown>;
}

export interface CustomerListQuery {
  name?: string;
  email?: string;
  customFilter: ParsedFilter;
}

export interface CustomerStorePort {
  insert(customer: Customer): Promise<void>;
  find(tenantId: string, id: string): Promise<Customer | undefined>;
  update(tenantId: string, id: string, changes: CustomerChanges, at: Date): Promise<Customer | undefined>;
  list(tenantId: string, query: CustomerListQuery, after: Cursor | undefined, limit: number): Promise<Customer[]>;
}
