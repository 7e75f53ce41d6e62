/** The customer store the customer use cases need, in domain terms (src/adapters/postgres). */
import type {
  CustomFieldEntity,
  CustomFieldEntityQuery,
  CustomFieldEntityCatalog,
} from "../entities/port.js";

/** A customer's own columns; id, tenant, custom fields, version and times are every entity's. */
export interface CustomerFields {
  name: string;
  email: string;
}

/** Exact-match list filters. */
export interface CustomerExactFilter {
  name?: string;
  email?: string;
}

export type Customer = CustomFieldEntity<CustomerFields>;
export type CustomerListQuery = CustomFieldEntityQuery<CustomerExactFilter>;
export type CustomerCatalog = CustomFieldEntityCatalog<CustomerFields, CustomerExactFilter>;
