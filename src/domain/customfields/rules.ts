/**
 * Conditional rules: which outcome applies in a context, and the field's effective settings once
 * the outcome is merged over its static ones.
 */
import { evaluateGroup, type ConditionTrace, type RuleContext } from "./conditions.js";
import type { FieldDefinition, FieldValidation, Rule, RuleOutcome } from "./definition.js";

export interface RuleMatch {
  outcome: RuleOutcome;
  ruleName: string;
  /** Whether the outcome is a matched rule's `then` (true) or a fallback `else` (false). */
  matched: boolean;
  /** The conditions of the rule that gave the outcome, each with whether it held. */
  conditions: ConditionTrace[];
}

/** Higher priority first; equal priorities keep their stored order (Array.sort is stable). */
export function sortRules(rules: readonly Rule[]): Rule[] {
  return [...rules].sort((a, b) => priorityOf(b) - priorityOf(a));
}

/**
 * The first rule (by priority) whose `when` holds wins with its `then`.
 *
 * When no rule matches, the `else` of the highest-priority rule that has one applies. The spec
 * gives every rule an `else` but says only that the first matching rule wins; applying every
 * `else` would let several unmatched rules fight over the same keys, so exactly one else applies,
 * chosen by the same priority order that picks the `then`.
 *
 * A matching rule without `then` still wins (and changes nothing): it stops lower rules and the
 * else fallback.
 */
export function evaluateRules(rules: readonly Rule[], context: RuleContext): RuleMatch | undefined {
  const sorted = sortRules(rules);
  const traces = new Map<Rule, ConditionTrace[]>();
  for (const rule of sorted) {
    const trace: ConditionTrace[] = [];
    traces.set(rule, trace);
    if (evaluateGroup(rule.when, context, trace)) {
      return { outcome: rule.then ?? {}, ruleName: rule.name, matched: true, conditions: trace };
    }
  }
  for (const rule of sorted) {
    if (rule.else) return { outcome: rule.else, ruleName: rule.name, matched: false, conditions: traces.get(rule) ?? [] };
  }
  return undefined;
}

export interface EffectiveField {
  required: boolean;
  validation: FieldValidation;
  /** The contextual or static default; undefined when there is none. */
  defaultValue: unknown;
  /** The rule whose outcome supplied the default; absent for the static default. */
  defaultFromRule?: string;
  /** That rule with its conditions, for an explanation. */
  defaultMatch?: RuleMatch;
  /** The validation rule whose outcome applies, with its conditions, for an explanation. */
  validationMatch?: RuleMatch;
  /** The rule whose outcome made the field required, for the violation's `rule`. */
  requiredByRule?: string;
}

/**
 * The field's settings in this context. validationRules may override `required` and
 * `validation`; defaultRules (for a RULE_BASED strategy) may override the default. Each override
 * is key by key: a key the outcome does not name keeps its static value (docs/decisions.md).
 */
export function effectiveField(def: FieldDefinition, context: RuleContext): EffectiveField {
  const validationMatch = evaluateRules(def.validationRules ?? [], context);
  const outcome = validationMatch?.outcome ?? {};
  const required = outcome.required ?? def.isRequired;
  const fallback = effectiveDefault(def, context);
  const result: EffectiveField = {
    required,
    validation: mergeValidation(def.validation ?? {}, outcome.validation),
    defaultValue: fallback.value,
  };
  if (validationMatch) result.validationMatch = validationMatch;
  if (fallback.rule !== undefined) {
    result.defaultFromRule = fallback.rule.ruleName;
    result.defaultMatch = fallback.rule;
  }
  if (outcome.required === true && validationMatch) result.requiredByRule = validationMatch.ruleName;
  return result;
}

/**
 * Keys the override names (not undefined) replace the static ones. An empty `enum` counts as not
 * named: on the wire a repeated field cannot tell "absent" from "empty", and the contract says an
 * empty list means no restriction.
 */
export function mergeValidation(base: FieldValidation, override: FieldValidation | undefined): FieldValidation {
  const merged: FieldValidation = { ...base };
  if (!override) return merged;
  const keys = ["min", "max", "minLength", "maxLength", "pattern", "minDate", "maxDate"] as const;
  for (const key of keys) {
    if (override[key] !== undefined) (merged as Record<string, unknown>)[key] = override[key];
  }
  if (override.enum !== undefined && override.enum.length > 0) merged.enum = [...override.enum];
  return merged;
}

/** defaultRules count only under the RULE_BASED strategy; the static default is their fallback. */
function effectiveDefault(def: FieldDefinition, context: RuleContext): { value: unknown; rule?: RuleMatch } {
  if (def.defaultStrategy === "RULE_BASED") {
    const match = evaluateRules(def.defaultRules ?? [], context);
    if (match && match.outcome.defaultValue !== undefined) {
      return { value: match.outcome.defaultValue, rule: match };
    }
  }
  if (def.defaultStrategy === "COMPUTED") return { value: undefined };
  return { value: def.defaultValue };
}

function priorityOf(rule: Rule): number {
  return Number.isFinite(rule.priority) ? rule.priority : 0;
}
