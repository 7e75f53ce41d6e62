import { BigIntType } from "@mikro-orm/core";
import { CustomFieldEntityRow, customFieldEntitySchema } from "./custom-field-entity-row.js";

export class ProductRow extends CustomFieldEntityRow {
  sku!: string;
  name!: string;
  priceCents!: number;
}

export const ProductSchema = customFieldEntitySchema(ProductRow, "products", {
  sku: { type: "string" },
  name: { type: "string" },
  // bigint column, read as a number: prices are bounded to 10^12 cents by the contract.
  priceCents: { type: new BigIntType("number") },
});
