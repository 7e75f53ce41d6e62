import type {
  DefaultStrategy,
  FieldDefinition,
  FieldType,
  FieldValidation,
  Rule,
  UiConfig,
} from "../../domain/customfields/definition.js";
import { FieldDefinitionRow } from "./entities/field-definition.js";

export function toRow(def: FieldDefinition): FieldDefinitionRow {
  return Object.assign(new FieldDefinitionRow(), {
    ...def,
    description: def.description ?? null,
    defaultValue: def.defaultValue ?? null,
    computedFormula: def.computedFormula ?? null,
    validation: def.validation as Record<string, unknown>,
    uiConfig: def.uiConfig as unknown as Record<string, unknown>,
    deletedAt: def.deletedAt ?? null,
  });
}

/** Optional columns that are NULL are left out, so `deletedAt === undefined` means live. */
export function toDefinition(row: FieldDefinitionRow): FieldDefinition {
  const def: FieldDefinition = {
    id: row.id,
    tenantId: row.tenantId,
    entityType: row.entityType,
    fieldKey: row.fieldKey,
    fieldLabel: row.fieldLabel,
    fieldType: row.fieldType as FieldType,
    isRequired: row.isRequired,
    displayOrder: row.displayOrder,
    defaultStrategy: row.defaultStrategy as DefaultStrategy,
    defaultRules: (row.defaultRules ?? []) as Rule[],
    validation: (row.validation ?? {}) as FieldValidation,
    validationRules: (row.validationRules ?? []) as Rule[],
    uiConfig: { options: [], ...(row.uiConfig ?? {}) } as UiConfig,
    isActive: row.isActive,
    indexed: row.indexed,
    version: row.version,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
  };
  if (row.description != null) def.description = row.description;
  if (row.defaultValue != null) def.defaultValue = row.defaultValue;
  if (row.computedFormula != null) def.computedFormula = row.computedFormula;
  if (row.deletedAt != null) def.deletedAt = new Date(row.deletedAt);
  return def;
}
