import type { Actor } from "../../domain/actor.js";
import type { CallScope } from "../../domain/call-scope.js";
import { createEntity } from "../entities/entity-custom-fields.js";
import { PRODUCT, type ProductsDeps } from "./deps.js";
import type { Product, ProductFields } from "./port.js";

/** The custom fields' defaults (rule conditions may read sku, name and price) come from the custom fields service. */
export async function createProduct(deps: ProductsDeps, actor: Actor, fields: ProductFields, customFields?: Record<string, unknown>, call?: CallScope): Promise<Product> {
  return createEntity(PRODUCT, deps, actor, fields, customFields, call);
}
