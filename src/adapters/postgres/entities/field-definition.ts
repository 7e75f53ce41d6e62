import { EntitySchema } from "@mikro-orm/core";

/** Enumerations are stored UPPER_SNAKE (the specification's storage casing). */
export class FieldDefinitionRow {
  id!: string;
  tenantId!: string;
  entityType!: string;
  fieldKey!: string;
  fieldLabel!: string;
  description?: string | null;
  fieldType!: string;
  isRequired = false;
  displayOrder = 0;
  defaultStrategy!: string;
  defaultValue?: string | null;
  computedFormula?: string | null;
  defaultRules!: unknown[];
  validation!: Record<string, unknown>;
  validationRules!: unknown[];
  uiConfig!: Record<string, unknown>;
  isActive = true;
  indexed = false;
  version = 1;
  createdAt!: Date;
  updatedAt!: Date;
  deletedAt?: Date | null;
}

export const FieldDefinitionSchema = new EntitySchema<FieldDefinitionRow>({
  class: FieldDefinitionRow,
  tableName: "custom_field_definitions",
  properties: {
    id: { type: "string", primary: true },
    tenantId: { type: "string" },
    entityType: { type: "string" },
    fieldKey: { type: "string" },
    fieldLabel: { type: "string" },
    description: { type: "text", nullable: true },
    fieldType: { type: "string" },
    isRequired: { type: "boolean" },
    displayOrder: { type: "integer" },
    defaultStrategy: { type: "string" },
    defaultValue: { type: "text", nullable: true },
    computedFormula: { type: "text", nullable: true },
    defaultRules: { type: "json" },
    validation: { type: "json" },
    validationRules: { type: "json" },
    uiConfig: { type: "json" },
    isActive: { type: "boolean" },
    indexed: { type: "boolean" },
    version: { type: "integer" },
    createdAt: { type: "Date" },
    updatedAt: { type: "Date" },
    deletedAt: { type: "Date", nullable: true },
  },
});
