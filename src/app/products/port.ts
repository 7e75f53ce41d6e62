/** The product store the product use cases need, in domain terms (src/adapters/postgres). */
import type {
  CustomFieldEntity,
  CustomFieldEntityCatalog,
} from "../entities/port.js";

/** A product's own columns; id, tenant, custom fields, version and times are every entity's. */
export interface ProductFields {
  sku: string;
  name: string;
  /** In cents; integral and at most 10^12, so exact as a number. */
  priceCents: number;
}

/** Exact-match list filters. */
export interface ProductExactFilter {
  sku?: string;
}

export type Product = CustomFieldEntity<ProductFields>;
export type ProductCatalog = CustomFieldEntityCatalog<ProductFields, ProductExactFilter>;
