import type { Actor } from "../../domain/actor.js";
import type { CallScope } from "../../domain/call-scope.js";
import { createEntity } from "../entities/entity-custom-fields.js";
import { CUSTOMER, type CustomersDeps } from "./deps.js";
import type { Customer } from "./port.js";

export interface CreateCustomerInput {
  name: string;
  email: string;
  customFields?: Record<string, unknown>;
}

export async function createCustomer(deps: CustomersDeps, actor: Actor, input: CreateCustomerInput, call?: CallScope): Promise<Customer> {
  return createEntity(CUSTOMER, deps, actor, { name: input.name, email: input.email }, input.customFields, call);
}
