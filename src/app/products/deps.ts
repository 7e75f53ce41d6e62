import type { CustomFieldEntityDeps, EntityKind } from "../entities/entity-custom-fields.js";
import type { ProductExactFilter, ProductFields } from "./port.js";

/** Products' custom fields are defined under the entity type "Product". */
export const PRODUCT: EntityKind = { entityType: "Product", noun: "product", notFound: "PRODUCT_NOT_FOUND" };

export type ProductsDeps = CustomFieldEntityDeps<ProductFields, ProductExactFilter>;
