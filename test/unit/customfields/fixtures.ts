import type { FieldDefinition } from "../../../src/domain/customfields/definition.js";

const CREATED = new Date("2024-01-01T00:00:00Z");

/** A definition with neutral defaults; tests name only what matters to them. */
export function def(fieldKey: string, overrides: Partial<FieldDefinition> = {}): FieldDefinition {
  return {
    id: `def_${fieldKey}`,
    tenantId: "tenant_1",
    entityType: "Customer",
    fieldKey,
    fieldLabel: fieldKey,
    fieldType: "STRING",
    isRequired: false,
    displayOrder: 0,
    defaultStrategy: "STATIC",
    defaultRules: [],
    validation: {},
    validationRules: [],
    uiConfig: { options: [] },
    isActive: true,
    indexed: false,
    version: 1,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

export const NOW = new Date("2024-03-15T10:20:30.000Z");
