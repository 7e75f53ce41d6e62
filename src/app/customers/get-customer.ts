import type { Actor } from "../../domain/actor.js";
import { findCustomerOrFail, type CustomersDeps } from "./deps.js";
import type { Customer } from "./port.js";

export async function getCustomer(deps: CustomersDeps, actor: Actor, id: string): Promise<Customer> {
  return findCustomerOrFail(deps, actor, id);
}
