/**
 * Plain domain types of a custom field definition. They mirror proto/customfields/v1/types.proto
 * but do not depend on the generated code: the domain stays independent of the wire contract.
 * Enumerated values are held in their storage form (UPPER_SNAKE); casing.ts converts at the edge.
 */

export const FIELD_TYPES = ["STRING", "NUMBER", "BOOLEAN", "DATE", "SELECT", "JSON", "COMPUTED"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const DEFAULT_STRATEGIES = ["STATIC", "RULE_BASED", "COMPUTED"] as const;
export type DefaultStrategy = (typeof DEFAULT_STRATEGIES)[number];

/** Static constraints on a value; every key optional. An empty `enum` means no restriction. */
export interface FieldValidation {
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  enum?: string[];
  /** YYYY-MM-DD. */
  minDate?: string;
  /** YYYY-MM-DD. */
  maxDate?: string;
}

export interface SelectOption {
  label: string;
  value: string;
}

export interface UiConfig {
  placeholder?: string;
  hidden?: boolean;
  readOnly?: boolean;
  options: SelectOption[];
}

export interface Condition {
  /** Dotted path into the rule context, e.g. `entity.country` or `user.role`. */
  field: string;
  operator: string;
  value?: unknown;
}

export type GroupOperator = "AND" | "OR";

export interface ConditionGroup {
  operator: GroupOperator;
  conditions: Condition[];
}

/** What a rule changes; keys it does not name keep their static value. */
export interface RuleOutcome {
  required?: boolean;
  defaultValue?: unknown;
  validation?: FieldValidation;
}

export interface Rule {
  name: string;
  /** Higher runs first. */
  priority: number;
  when: ConditionGroup;
  then?: RuleOutcome;
  else?: RuleOutcome;
}

export interface FieldDefinition {
  id: string;
  tenantId: string;
  entityType: string;
  fieldKey: string;
  fieldLabel: string;
  description?: string;
  fieldType: FieldType;
  isRequired: boolean;
  displayOrder: number;
  defaultStrategy: DefaultStrategy;
  defaultValue?: string;
  computedFormula?: string;
  defaultRules: Rule[];
  validation: FieldValidation;
  validationRules: Rule[];
  uiConfig: UiConfig;
  isActive: boolean;
  /** Marks the field for a typed expression index (range filters and sorting at scale). */
  indexed: boolean;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  deletedAt?: Date;
}

/** A definition takes part in defaults and validation only while active and not deleted. */
export function isActiveDefinition(def: Pick<FieldDefinition, "isActive" | "deletedAt">): boolean {
  return def.isActive && def.deletedAt === undefined;
}

/** A field whose value is always calculated by its formula, never taken from the user. */
export function isComputedDefinition(def: Pick<FieldDefinition, "fieldType" | "defaultStrategy">): boolean {
  return def.fieldType === "COMPUTED" || def.defaultStrategy === "COMPUTED";
}
