import type { Actor } from "../../domain/actor.js";
import type { CustomersDeps } from "./deps.js";
import type { Customer } from "./port.js";
import { CUSTOMER_ENTITY_TYPE } from "./deps.js";

export interface CreateCustomerInput {
  name: string;
  email: string;
  customFields?: Record<string, unknown>;
}

/** Defaults, merge and validation of the custom fields come from the custom fields service. */
export async function createCustomer(deps: CustomersDeps, actor: Actor, input: CreateCustomerInput): Promise<Customer> {
  const entity = { name: input.name, email: input.email, customFields: input.customFields ?? {} };
  const customFields = await deps.customFields.resolveForCreate(actor, CUSTOMER_ENTITY_TYPE, input.customFields, { entity });
  const now = deps.now();
  const customer: Customer = {
    id: deps.newId(),
    tenantId: actor.tenantId,
    name: input.name,
    email: input.email,
    customFields,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await deps.store.insert(customer);
  return customer;
}
