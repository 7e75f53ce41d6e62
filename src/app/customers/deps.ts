import type { CustomFieldEntityDeps, EntityKind } from "../entities/entity-custom-fields.js";
import type { CustomerExactFilter, CustomerFields } from "./port.js";

/** Customers' custom fields are defined under the entity type "Customer". */
export const CUSTOMER: EntityKind = { entityType: "Customer", noun: "customer", notFound: "CUSTOMER_NOT_FOUND" };

export type CustomersDeps = CustomFieldEntityDeps<CustomerFields, CustomerExactFilter>;
