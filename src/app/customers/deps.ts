import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import type { CustomFieldsPort } from "../customfields/custom-fields-port.js";
import type { Customer, CustomerStorePort } from "./port.js";


/** The entity type under which customers' custom fields are defined. */
export const CUSTOMER_ENTITY_TYPE = "Customer";

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
