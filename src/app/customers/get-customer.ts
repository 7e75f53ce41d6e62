import { findCustomerOrFail, type Actor, type Customer, type CustomersDeps } from "./deps.js";

export async function getCustomer(deps: CustomersDeps, actor: Actor, id: string): Promise<Customer> {
  return findCustomerOrFail(deps, actor, id);
}
