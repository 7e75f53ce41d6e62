/**
 * The create-time resolution engine, with its trace. resolveForCreate (values.ts) stores its
 * values; ExplainValuesForCreate answers the trace itself; both run this one function, so an
 * explanation can never drift from what a create does.
 *
 * Stages (docs/custom-fields.md), each seeing the previous through `entity.customFields` of the
 * context (rules) and bare field keys (formulas):
 *   1. static defaults, with the user's values over them;
 *   2. rules (defaultRules and validationRules of every field) evaluated against stage 1; a rule's
 *      default replaces the static one where the user sent nothing; every non-computed value is
 *      then settled (required, type, constraints);
 *   3. computed fields, evaluated over the settled values, then settled like the others (a number
 *      field with `max: 10` does not store a computed 20). A user's value for a computed field is
 *      ignored (docs/decisions.md).
 * For keys being resolved, the resolved values replace what the caller's `entity.customFields`
 * holds; the caller's other keys stay visible.
 */
import type { ErrorReason, FieldViolation } from "../errors.js";
import type { ConditionTrace, RuleContext } from "./conditions.js";
import { computeValues, formulaInputs } from "./computed-values.js";
import { isComputedDefinition, type FieldDefinition } from "./definition.js";
import { isFormulaLimitError } from "./formula-budget.js";
import type { FormulaValue } from "./formula.js";
import { DEFAULT_CUSTOM_FIELD_LIMITS, type CustomFieldLimits } from "./limits.js";
import { effectiveField, type EffectiveField, type RuleMatch } from "./rules.js";
import { toPlainObject } from "./safe-keys.js";
import type { ConstraintCheck } from "./value-checks.js";
import {
  asRecord,
  Catalog,
  defaultOf,
  fieldPath,
  inDefinitionOrder,
  ownSupplied,
  patternBudget,
  patternUse,
  settle,
  staticDefaultOf,
  withTimestamp,
  type Settled,
} from "./value-settling.js";

export type ValueSource = "USER" | "STATIC_DEFAULT" | "RULE" | "COMPUTED" | "NONE";

export interface RuleExplanation {
  name: string;
  /** The rule's `then` (true) or the fallback `else` (false). */
  matched: boolean;
  conditions: ConditionTrace[];
}

export interface FieldExplanation {
  fieldKey: string;
  source: ValueSource;
  /** The value as stored; absent when the field has none or its value was refused. */
  value?: unknown;
  /** The default rule that gave the value (source RULE). */
  defaultRule?: RuleExplanation;
  /** The validation rule whose outcome set `required` or the constraints. */
  validationRule?: RuleExplanation;
  /** The formula and what each name in it read (source COMPUTED). */
  formula?: { source: string; inputs: Record<string, FormulaValue> };
  constraints: ConstraintCheck[];
  violation?: FieldViolation;
  /** The user sent a value for this computed field; it was ignored. */
  userValueIgnored?: boolean;
}

export interface Resolution {
  /** The values a create stores (those of refused fields left out). */
  customFields: Record<string, unknown>;
  /** Every active field, by display order. */
  fields: FieldExplanation[];
  /** Unknown keys first, then one per refused field. */
  violations: FieldViolation[];
  /** The formulas exceeded their budget (the violation names the field); computed values are partial. */
  formulaLimitExceeded: boolean;
}

export function resolveTraced(
  defs: readonly FieldDefinition[],
  userValues: unknown,
  context: RuleContext,
  now: Date,
  limits: CustomFieldLimits = DEFAULT_CUSTOM_FIELD_LIMITS,
): Resolution {
  const supplied = asRecord(userValues);
  const catalog = new Catalog(defs);
  const base = withTimestamp(context, now);
  const violations = catalog.unknownKeys(supplied);
  const explained = new Map<string, FieldExplanation>();
  const budget = patternBudget(limits);

  const staged = staticStage(catalog.active, supplied);
  const ruleContext = withEntityValues(base, staged);
  const fields = new Map(catalog.active.map((def) => [def.fieldKey, effectiveField(def, ruleContext)]));
  const values = new Map<string, unknown>();
  for (const def of catalog.active) {
    if (isComputedDefinition(def)) continue;
    const field = fields.get(def.fieldKey)!;
    const fromUser = ownSupplied(supplied, def.fieldKey);
    const candidate = fromUser !== undefined ? fromUser : defaultOf(def, field);
    const settled = settle(def, field, candidate, patternUse(def, limits, budget));
    if (!settled.violation && settled.value !== undefined) values.set(def.fieldKey, settled.value);
    explained.set(def.fieldKey, explanation(def, field, sourceOf(fromUser, field, candidate), settled));
  }

  const computedDefs = catalog.active.filter(isComputedDefinition);
  const formulaContext = withEntityValues(base, values);
  const limitViolation = computeWithinBudget(computedDefs, values, formulaContext, now, limits);
  for (const def of computedDefs) {
    const field = fields.get(def.fieldKey)!;
    const settled: Settled = limitViolation ? { constraints: [] } : settle(def, field, values.get(def.fieldKey), patternUse(def, limits, budget));
    if (settled.violation || limitViolation) values.delete(def.fieldKey);
    const formula = formulaInputs(def, values, formulaContext, now);
    const entry = explanation(def, field, formula ? "COMPUTED" : "NONE", settled);
    if (formula) entry.formula = formula;
    if (ownSupplied(supplied, def.fieldKey) !== undefined) entry.userValueIgnored = true;
    if (limitViolation?.field === fieldPath(def.fieldKey)) entry.violation = limitViolation;
    explained.set(def.fieldKey, entry);
  }

  const fieldViolations = catalog.active.flatMap((def) => explained.get(def.fieldKey)?.violation ?? []);
  if (limitViolation && !fieldViolations.includes(limitViolation)) fieldViolations.push(limitViolation);
  return {
    customFields: toPlainObject(inDefinitionOrder(catalog.active, values)),
    fields: catalog.active.map((def) => explained.get(def.fieldKey)!),
    violations: [...violations, ...fieldViolations],
    formulaLimitExceeded: limitViolation !== undefined,
  };
}

/** The reason a create with this resolution fails with; undefined when it succeeds. */
export function refusalReason(resolution: Resolution): ErrorReason | undefined {
  const { violations } = resolution;
  if (violations.length === 0) return undefined;
  return resolution.formulaLimitExceeded && violations.length === 1 ? "FORMULA_LIMIT_EXCEEDED" : "CUSTOM_FIELD_VALIDATION_FAILED";
}

/** Stage 1: the user's values over the static defaults, for the rules to see. */
function staticStage(active: readonly FieldDefinition[], supplied: Readonly<Record<string, unknown>>): Map<string, unknown> {
  const staged = new Map<string, unknown>();
  for (const def of active) {
    if (isComputedDefinition(def)) continue;
    const fromUser = ownSupplied(supplied, def.fieldKey);
    const value = fromUser !== undefined ? fromUser : staticDefaultOf(def);
    if (value !== undefined) staged.set(def.fieldKey, value);
  }
  return staged;
}

/** The context with `entity.customFields` holding the values resolved so far over the caller's. */
function withEntityValues(context: RuleContext, values: ReadonlyMap<string, unknown>): RuleContext {
  const entity = objectOrEmpty(context.entity);
  const customFields = { ...objectOrEmpty(entity.customFields), ...toPlainObject(values) };
  return { ...context, entity: { ...entity, customFields } };
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function sourceOf(fromUser: unknown, field: EffectiveField, candidate: unknown): ValueSource {
  if (fromUser !== undefined) return "USER";
  if (field.defaultFromRule !== undefined) return "RULE";
  return candidate === undefined || candidate === null ? "NONE" : "STATIC_DEFAULT";
}

function explanation(def: FieldDefinition, field: EffectiveField, source: ValueSource, settled: Settled): FieldExplanation {
  const entry: FieldExplanation = { fieldKey: def.fieldKey, source, constraints: settled.constraints };
  if (!settled.violation && settled.value !== undefined) entry.value = settled.value;
  if (settled.violation) entry.violation = settled.violation;
  if (source === "RULE" && field.defaultMatch) entry.defaultRule = ruleExplanation(field.defaultMatch);
  if (field.validationMatch) entry.validationRule = ruleExplanation(field.validationMatch);
  return entry;
}

function ruleExplanation(match: RuleMatch): RuleExplanation {
  return { name: match.ruleName, matched: match.matched, conditions: match.conditions };
}

/** A budget exceeded is a violation on the field whose formula exceeded it. */
function computeWithinBudget(
  computedDefs: readonly FieldDefinition[],
  values: Map<string, unknown>,
  context: RuleContext,
  now: Date,
  limits: CustomFieldLimits,
): FieldViolation | undefined {
  if (computedDefs.length === 0) return undefined;
  try {
    computeValues(computedDefs, values, context, now, limits.formulas);
    return undefined;
  } catch (error) {
    if (!isFormulaLimitError(error)) throw error;
    return { field: fieldPath(error.metadata.fieldKey ?? ""), description: error.message };
  }
}
