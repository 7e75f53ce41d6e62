import type { Actor } from "../../domain/actor.js";
import { findEntityOrFail } from "../entities/entity-custom-fields.js";
import { CUSTOMER, type CustomersDeps } from "./deps.js";
import type { Customer } from "./port.js";

export async function getCustomer(deps: CustomersDeps, actor: Actor, id: string): Promise<Customer> {
  return findEntityOrFail(CUSTOMER, deps, actor, id);
}
