import type { Actor } from "../../domain/actor.js";
import type { CallScope } from "../../domain/call-scope.js";
import { updateEntity, type EntityUpdate } from "../entities/entity-custom-fields.js";
import { PRODUCT, type ProductsDeps } from "./deps.js";
import type { Product, ProductExactFilter, ProductFields } from "./port.js";

/** The sku is the product's identity for people: it is set on create and never changes. */
export async function updateProduct(deps: ProductsDeps, actor: Actor, input: EntityUpdate<Omit<ProductFields, "sku">>, call?: CallScope): Promise<Product> {
  return updateEntity<ProductFields, ProductExactFilter>(PRODUCT, deps, actor, input, call);
}
