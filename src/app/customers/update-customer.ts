import type { Actor } from "../../domain/actor.js";
import type { CallScope } from "../../domain/call-scope.js";
import { updateEntity, type EntityUpdate } from "../entities/entity-custom-fields.js";
import { CUSTOMER, type CustomersDeps } from "./deps.js";
import type { Customer, CustomerFields } from "./port.js";

export type UpdateCustomerInput = EntityUpdate<CustomerFields>;

export async function updateCustomer(deps: CustomersDeps, actor: Actor, input: UpdateCustomerInput, call?: CallScope): Promise<Customer> {
  return updateEntity(CUSTOMER, deps, actor, input, call);
}
