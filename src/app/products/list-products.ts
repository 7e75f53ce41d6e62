import type { Actor } from "../../domain/actor.js";
import { listEntities, type EntityListInput, type EntityPage } from "../entities/entity-custom-fields.js";
import { PRODUCT, type ProductsDeps } from "./deps.js";
import type { ProductExactFilter, ProductFields } from "./port.js";

/** Newest first; sku is an exact match, every other parameter a custom field filter. */
export async function listProducts(deps: ProductsDeps, actor: Actor, input: EntityListInput<ProductExactFilter>): Promise<EntityPage<ProductFields>> {
  return listEntities(PRODUCT, deps, actor, input);
}
