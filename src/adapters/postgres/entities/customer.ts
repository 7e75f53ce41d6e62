import { CustomFieldEntityRow, customFieldEntitySchema } from "./custom-field-entity-row.js";

export class CustomerRow extends CustomFieldEntityRow {
  name!: string;
  email!: string;
}

export const CustomerSchema = customFieldEntitySchema(CustomerRow, "customers", { name: { type: "string" }, email: { type: "string" } });
