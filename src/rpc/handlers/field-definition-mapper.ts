/**
 * Contract <-> domain for field definitions on the server. Enums leave as kebab-case (casing.ts);
 * they enter as the caller wrote them and the use case accepts either documented form (messages
 * are read with src/contract/field-definition-messages.ts, which the clients share). Update masks are read
 * here: which fields an update gives is a question of the contract, not of the domain.
 */
import { create, fromJson, type JsonValue, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate, ValueSchema, type Value } from "@bufbuild/protobuf/wkt";
import type {
  CreateFieldDefinitionRequest,
  UpdateFieldDefinitionRequest,
} from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import {
  FieldDefinitionSchema,
  ParsedFilterSchema,
  type RuleSchema,
  type FieldDefinition as FieldDefinitionMessage,
  type ParsedFilter as ParsedFilterMessage,
} from "@files-and-fields/client/gen/customfields/v1/types_pb.js";
import type { CreateDefinitionInput } from "../../app/customfields/create-definition.js";
import type { DefinitionFields } from "../../app/customfields/definition-input.js";
import type { UpdateDefinitionInput } from "../../app/customfields/update-definition.js";
import { fromRule, fromUiConfig, fromValidation } from "../../contract/field-definition-messages.js";
import { defaultStrategyToApi, fieldTypeToApi, toKebab } from "../../domain/customfields/casing.js";
import type { FieldDefinition, Rule, RuleOutcome } from "../../domain/customfields/definition.js";
import type { ParsedFilter } from "../../domain/customfields/filters.js";
import { validationFailed } from "../../domain/errors.js";
import { readUpdateMask } from "../update-mask.js";

type RuleInit = MessageInitShape<typeof RuleSchema>;

// ---- out ----

export function toDefinitionMessage(def: FieldDefinition): FieldDefinitionMessage {
  return create(FieldDefinitionSchema, {
    id: def.id,
    tenantId: def.tenantId,
    entityType: def.entityType,
    fieldKey: def.fieldKey,
    fieldLabel: def.fieldLabel,
    description: def.description,
    fieldType: fieldTypeToApi(def.fieldType),
    isRequired: def.isRequired,
    displayOrder: def.displayOrder,
    defaultStrategy: defaultStrategyToApi(def.defaultStrategy),
    defaultValue: def.defaultValue,
    computedFormula: def.computedFormula,
    defaultRules: def.defaultRules.map(toRuleInit),
    validation: def.validation,
    validationRules: def.validationRules.map(toRuleInit),
    uiConfig: def.uiConfig,
    isActive: def.isActive,
    indexed: def.indexed,
    version: def.version,
    createdAt: timestampFromDate(def.createdAt),
    updatedAt: timestampFromDate(def.updatedAt),
    deletedAt: def.deletedAt ? timestampFromDate(def.deletedAt) : undefined,
  });
}

function toRuleInit(rule: Rule): RuleInit {
  return {
    name: rule.name,
    priority: rule.priority,
    when: rule.when && {
      operator: rule.when.operator,
      conditions: rule.when.conditions.map((c) => ({
        field: c.field,
        operator: c.operator,
        value: c.value === undefined ? undefined : toValue(c.value),
      })),
    },
    thenOutcome: rule.then && toOutcomeInit(rule.then),
    elseOutcome: rule.else && toOutcomeInit(rule.else),
  };
}

function toOutcomeInit(outcome: RuleOutcome) {
  return {
    required: outcome.required,
    defaultValue: outcome.defaultValue === undefined ? undefined : toValue(outcome.defaultValue),
    validation: outcome.validation,
  };
}

export function toFilterMessage(filter: ParsedFilter): ParsedFilterMessage {
  return create(ParsedFilterSchema, {
    clauses: filter.clauses.map((clause) => ({
      fieldKey: clause.fieldKey,
      fieldType: toKebab(clause.fieldType),
      operator: clause.operator,
      values: clause.values.map(toValue),
    })),
  });
}

function toValue(value: unknown): Value {
  return fromJson(ValueSchema, value as JsonValue);
}

// ---- in ----

export function createInput(req: CreateFieldDefinitionRequest): CreateDefinitionInput {
  return {
    entityType: req.entityType,
    fieldKey: req.fieldKey,
    fieldLabel: req.fieldLabel,
    description: req.description,
    fieldType: req.fieldType,
    isRequired: req.isRequired,
    displayOrder: req.displayOrder,
    defaultStrategy: req.defaultStrategy,
    defaultValue: req.defaultValue,
    computedFormula: req.computedFormula,
    defaultRules: req.defaultRules.map(fromRule),
    validation: fromValidation(req.validation),
    validationRules: req.validationRules.map(fromRule),
    uiConfig: fromUiConfig(req.uiConfig),
    isActive: req.isActive ?? true,
    indexed: req.indexed,
  };
}

type Field = keyof DefinitionFields;

/**
 * Per mask path: the field, whether the request sets it, its value, and its value when the mask
 * names it but the request leaves it unset (cleared, or back to the create default).
 */
const UPDATE_FIELDS: Record<string, { field: Field; isSet(r: UpdateFieldDefinitionRequest): boolean; value(r: UpdateFieldDefinitionRequest): unknown; reset: unknown }> = {
  field_label: { field: "fieldLabel", isSet: (r) => r.fieldLabel !== undefined, value: (r) => r.fieldLabel, reset: "" },
  description: { field: "description", isSet: (r) => r.description !== undefined, value: (r) => r.description, reset: undefined },
  field_type: { field: "fieldType", isSet: (r) => r.fieldType !== undefined, value: (r) => r.fieldType, reset: "" },
  is_required: { field: "isRequired", isSet: (r) => r.isRequired !== undefined, value: (r) => r.isRequired, reset: false },
  display_order: { field: "displayOrder", isSet: (r) => r.displayOrder !== undefined, value: (r) => r.displayOrder, reset: 0 },
  default_strategy: { field: "defaultStrategy", isSet: (r) => r.defaultStrategy !== undefined, value: (r) => r.defaultStrategy, reset: "" },
  default_value: { field: "defaultValue", isSet: (r) => r.defaultValue !== undefined, value: (r) => r.defaultValue, reset: undefined },
  computed_formula: { field: "computedFormula", isSet: (r) => r.computedFormula !== undefined, value: (r) => r.computedFormula, reset: undefined },
  default_rules: { field: "defaultRules", isSet: (r) => r.defaultRules.length > 0, value: (r) => r.defaultRules.map(fromRule), reset: [] },
  validation: { field: "validation", isSet: (r) => r.validation !== undefined, value: (r) => fromValidation(r.validation), reset: {} },
  validation_rules: { field: "validationRules", isSet: (r) => r.validationRules.length > 0, value: (r) => r.validationRules.map(fromRule), reset: [] },
  ui_config: { field: "uiConfig", isSet: (r) => r.uiConfig !== undefined, value: (r) => fromUiConfig(r.uiConfig), reset: { options: [] } },
  is_active: { field: "isActive", isSet: (r) => r.isActive !== undefined, value: (r) => r.isActive, reset: true },
  indexed: { field: "indexed", isSet: (r) => r.indexed !== undefined, value: (r) => r.indexed, reset: false },
};

const UPDATE_PATHS: ReadonlySet<string> = new Set(Object.keys(UPDATE_FIELDS));

/** Paths that name the request's own plumbing or identity, not a definition field to write. */
const NOT_WRITTEN = new Set(["id", "expected_version", "update_mask", "entity_type", "field_key"]);

/**
 * The given fields: those the mask names (set, or reset when unset), or with an empty mask those
 * the request sets. entityType and fieldKey are passed on when present, to be checked unchanged.
 */
export function updateInput(req: UpdateFieldDefinitionRequest): UpdateDefinitionInput {
  const mask = readUpdateMask(req.updateMask, UPDATE_PATHS, NOT_WRITTEN);
  if (mask.violations.length > 0) throw validationFailed(mask.violations);
  const chosen = mask.named ?? [...UPDATE_PATHS].filter((p) => UPDATE_FIELDS[p].isSet(req));
  const fields: Partial<Record<Field, unknown>> = {};
  for (const path of chosen) {
    const spec = UPDATE_FIELDS[path];
    fields[spec.field] = spec.isSet(req) ? spec.value(req) : spec.reset;
  }
  return {
    id: req.id,
    expectedVersion: req.expectedVersion,
    entityType: req.entityType,
    fieldKey: req.fieldKey,
    fields: fields as Partial<DefinitionFields>,
  };
}
