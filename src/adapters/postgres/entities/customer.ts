import { EntitySchema } from "@mikro-orm/core";

export class CustomerRow {
  id!: string;
  tenantId!: string;
  name!: string;
  email!: string;
  customFields!: Record<string, unknown>;
  version = 1;
  createdAt!: Date;
  updatedAt!: Date;
}

export const CustomerSchema = new EntitySchema<CustomerRow>({
  class: CustomerRow,
  tableName: "customers",
  properties: {
    id: { type: "uuid", primary: true },
    tenantId: { type: "string" },
    name: { type: "string" },
    email: { type: "string" },
    customFields: { type: "json" },
    version: { type: "integer" },
    createdAt: { type: "Date" },
    updatedAt: { type: "Date" },
  },
});
