import type { Actor } from "../../domain/actor.js";
import { findEntityOrFail } from "../entities/entity-custom-fields.js";
import { PRODUCT, type ProductsDeps } from "./deps.js";
import type { Product } from "./port.js";

/** Another tenant's product is PRODUCT_NOT_FOUND, like a missing one. */
export async function getProduct(deps: ProductsDeps, actor: Actor, id: string): Promise<Product> {
  return findEntityOrFail(PRODUCT, deps, actor, id);
}
