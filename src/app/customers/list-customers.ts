import type { Actor } from "../../domain/actor.js";
import { listEntities, type EntityListInput, type EntityPage } from "../entities/entity-custom-fields.js";
import { CUSTOMER, type CustomersDeps } from "./deps.js";
import type { CustomerExactFilter, CustomerFields } from "./port.js";

export async function listCustomers(
  deps: CustomersDeps,
  actor: Actor,
  input: EntityListInput<CustomerExactFilter>,
): Promise<EntityPage<CustomerFields>> {
  return listEntities(CUSTOMER, deps, actor, input);
}
