import { EntitySchema, type Constructor, type EntitySchemaProperty } from "@mikro-orm/core";

/** The columns every entity table with custom fields has (custom-field-entity-store.ts reads them). */
export abstract class CustomFieldEntityRow {
  id!: string;
  tenantId!: string;
  customFields!: Record<string, unknown>;
  version = 1;
  createdAt!: Date;
  updatedAt!: Date;
}

const shared = {
  id: { type: "uuid", primary: true },
  tenantId: { type: "string" },
  customFields: { type: "json" },
  version: { type: "integer" },
  createdAt: { type: "Date" },
  updatedAt: { type: "Date" },
} as const;

type OwnProperties<T> = { [K in Exclude<keyof T, keyof CustomFieldEntityRow>]: EntitySchemaProperty<T[K], T> };

/** The schema of an entity table with custom fields: the shared columns and the entity's own. */
export function customFieldEntitySchema<T extends CustomFieldEntityRow>(row: Constructor<T>, tableName: string, own: OwnProperties<T>): EntitySchema<T> {
  return new EntitySchema<T>({ class: row, tableName, properties: { ...shared, ...own } as never });
}
