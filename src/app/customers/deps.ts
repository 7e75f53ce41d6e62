import { AppError } from "../../domain/errors.js";
import type { ParsedFilter } from "../../domain/customfields/filters.js";
import type { CustomFieldsPort } from "../customfields/port.js";
import type { Cursor } from "../../domain/pagination.js";
import type { Actor } from "../../domain/files/stored-object.js";

export type { Actor };

/** The entity type under which customers' custom fields are defined. */
export const CUSTOMER_ENTITY_TYPE = "Customer";

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

export interface CustomersDeps {
  store: CustomerStorePort;
  customFields: CustomFieldsPort;
  now(): Date;
  newId(): string;
}

/** Another tenant's customer behaves exactly like one that does not exist. */
export async function findCustomerOrFail(deps: CustomersDeps, actor: Actor, id: string): Promise<Customer> {
  const found = await deps.store.find(actor.tenantId, id);
  if (!found) throw new AppError("CUSTOMER_NOT_FOUND", `customer ${id} not found`);
  return found;
}
