import { fromJson, type JsonObject, type JsonValue, type MessageInitShape } from "@bufbuild/protobuf";
import { ValueSchema, type Value } from "@bufbuild/protobuf/wkt";
import type {
  ExplainedViolation,
  ExplainValuesForCreateResponseSchema,
  RuleExplanationSchema,
} from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import type { Explanation } from "../../app/customfields/explain-values.js";
import type { RuleExplanation } from "../../domain/customfields/resolution.js";
import type { FieldViolation } from "../../domain/errors.js";

type ExplainResponse = MessageInitShape<typeof ExplainValuesForCreateResponseSchema>;

/** An explanation on the wire; a value that is absent in the trace stays unset. */
export function toExplanationMessage(explanation: Explanation): ExplainResponse {
  return {
    customFields: explanation.customFields as JsonObject,
    fields: explanation.fields.map((field) => ({
      fieldKey: field.fieldKey,
      source: field.source,
      value: toValue(field.value),
      defaultRule: field.defaultRule && toRuleMessage(field.defaultRule),
      validationRule: field.validationRule && toRuleMessage(field.validationRule),
      formula: field.formula && { source: field.formula.source, inputs: { ...field.formula.inputs } as JsonObject },
      constraints: field.constraints,
      violation: field.violation && toViolationMessage(field.violation),
      userValueIgnored: field.userValueIgnored ?? false,
    })),
    violations: explanation.violations.map(toViolationMessage),
    reason: explanation.reason ?? "",
  };
}

function toRuleMessage(rule: RuleExplanation): MessageInitShape<typeof RuleExplanationSchema> {
  return {
    name: rule.name,
    matched: rule.matched,
    conditions: rule.conditions.map((c) => ({
      field: c.field,
      operator: c.operator,
      expected: toValue(c.expected),
      actual: toValue(c.actual),
      held: c.held,
    })),
  };
}

function toViolationMessage(violation: FieldViolation): Pick<ExplainedViolation, "field" | "description" | "rule"> {
  return { field: violation.field, description: violation.description, rule: violation.rule };
}

function toValue(value: unknown): Value | undefined {
  return value === undefined ? undefined : fromJson(ValueSchema, value as JsonValue);
}
