import type { MikroORM } from "@mikro-orm/postgresql";
import type { ProductExactFilter, ProductFields, ProductCatalog } from "../../app/products/port.js";
import { CustomFieldEntityTableStore } from "./custom-field-entity-store.js";
import { ProductRow } from "./entities/product.js";

/** Products in PostgreSQL, on the store every entity with custom fields shares. */
export class ProductStore extends CustomFieldEntityTableStore<ProductFields, ProductExactFilter> implements ProductCatalog {
  constructor(orm: MikroORM) {
    super(orm, { row: ProductRow, alias: "p", columns: ["sku", "name", "priceCents"] });
  }
}
