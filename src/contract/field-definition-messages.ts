/**
 * Contract -> domain for field definitions, shared by the server (src/rpc reads requests with it)
 * and the clients (the offline fields client reads the API's answers with it). Enum values come
 * in either documented casing.
 */
import { toJson } from "@bufbuild/protobuf";
import { timestampDate, ValueSchema } from "@bufbuild/protobuf/wkt";
import type {
  FieldDefinition as FieldDefinitionMessage,
  FieldValidation as ValidationMessage,
  Rule as RuleMessage,
  RuleOutcome as OutcomeMessage,
  UiConfig as UiConfigMessage,
} from "@files-and-fields/client/gen/customfields/v1/types_pb.js";
import { parseDefaultStrategy, parseFieldType, type Parsed } from "../domain/customfields/casing.js";
import type { FieldDefinition, FieldValidation, GroupOperator, Rule, RuleOutcome, UiConfig } from "../domain/customfields/definition.js";
import { validationFailed } from "../domain/errors.js";

/**
 * A definition as the API answered it, back in domain terms: what an offline client evaluates
 * with the server's own code. Enum values come back in either documented casing.
 */
export function fromDefinitionMessage(msg: FieldDefinitionMessage): FieldDefinition {
  const def: FieldDefinition = {
    id: msg.id,
    tenantId: msg.tenantId,
    entityType: msg.entityType,
    fieldKey: msg.fieldKey,
    fieldLabel: msg.fieldLabel,
    fieldType: parsedOrThrow(parseFieldType(msg.fieldType)),
    isRequired: msg.isRequired,
    displayOrder: msg.displayOrder,
    defaultStrategy: parsedOrThrow(parseDefaultStrategy(msg.defaultStrategy)),
    defaultRules: msg.defaultRules.map(fromRule),
    validation: fromValidation(msg.validation),
    validationRules: msg.validationRules.map(fromRule),
    uiConfig: fromUiConfig(msg.uiConfig),
    isActive: msg.isActive,
    indexed: msg.indexed,
    version: msg.version,
    createdAt: msg.createdAt ? timestampDate(msg.createdAt) : new Date(0),
    updatedAt: msg.updatedAt ? timestampDate(msg.updatedAt) : new Date(0),
  };
  if (msg.description !== undefined) def.description = msg.description;
  if (msg.defaultValue !== undefined) def.defaultValue = msg.defaultValue;
  if (msg.computedFormula !== undefined) def.computedFormula = msg.computedFormula;
  if (msg.deletedAt) def.deletedAt = timestampDate(msg.deletedAt);
  return def;
}

function parsedOrThrow<T>(parsed: Parsed<T>): T {
  if (!parsed.ok) throw validationFailed([parsed.violation]);
  return parsed.value;
}

export function fromValidation(v: ValidationMessage | undefined): FieldValidation {
  if (!v) return {};
  const out: FieldValidation = {};
  if (v.min !== undefined) out.min = v.min;
  if (v.max !== undefined) out.max = v.max;
  if (v.minLength !== undefined) out.minLength = v.minLength;
  if (v.maxLength !== undefined) out.maxLength = v.maxLength;
  if (v.pattern !== undefined) out.pattern = v.pattern;
  if (v.enum.length > 0) out.enum = [...v.enum];
  if (v.minDate !== undefined) out.minDate = v.minDate;
  if (v.maxDate !== undefined) out.maxDate = v.maxDate;
  return out;
}

export function fromUiConfig(ui: UiConfigMessage | undefined): UiConfig {
  const out: UiConfig = { options: (ui?.options ?? []).map((o) => ({ label: o.label, value: o.value })) };
  if (ui?.placeholder !== undefined) out.placeholder = ui.placeholder;
  if (ui?.hidden !== undefined) out.hidden = ui.hidden;
  if (ui?.readOnly !== undefined) out.readOnly = ui.readOnly;
  return out;
}

/** A rule without `when` stays without it, so the save-time check can name it. */
export function fromRule(rule: RuleMessage): Rule {
  const out = {
    name: rule.name,
    priority: rule.priority,
    when: rule.when && {
      operator: rule.when.operator as GroupOperator,
      conditions: rule.when.conditions.map((c) => {
        const condition: Rule["when"]["conditions"][number] = { field: c.field, operator: c.operator };
        if (c.value !== undefined) condition.value = toJson(ValueSchema, c.value);
        return condition;
      }),
    },
  } as Rule;
  if (rule.thenOutcome) out.then = fromOutcome(rule.thenOutcome);
  if (rule.elseOutcome) out.else = fromOutcome(rule.elseOutcome);
  return out;
}

function fromOutcome(outcome: OutcomeMessage): RuleOutcome {
  const out: RuleOutcome = {};
  if (outcome.required !== undefined) out.required = outcome.required;
  if (outcome.defaultValue !== undefined) out.defaultValue = toJson(ValueSchema, outcome.defaultValue);
  if (outcome.validation !== undefined) out.validation = fromValidation(outcome.validation);
  return out;
}
