/**
 * Computing the values of computed fields for a create: formulas run in dependency order over the
 * values resolved so far, in repeated passes until nothing changes, at most MAX_PASSES times
 * (spec, Limits). With an acyclic graph the second pass only confirms the first. Cycles are
 * refused at save time; should stored definitions still form one, the fields are evaluated in
 * display order and whatever the last pass produced is kept. All formulas of one call share one
 * budget (formula-budget.ts); exceeding it throws FORMULA_LIMIT_EXCEEDED naming the field.
 */
import { AppError, isAppError } from "../errors.js";
import { valuesEqual } from "./compare.js";
import { computedOrder } from "./computed-graph.js";
import type { FieldDefinition } from "./definition.js";
import { DEFAULT_FORMULA_LIMITS, FormulaBudget, isFormulaLimitError, type FormulaLimits } from "./formula-budget.js";
import { formulaOf, type CompiledFormula, type FormulaScope, type FormulaValue } from "./formula.js";
import { readBareName } from "./formula-eval.js";
import type { RuleContext } from "./conditions.js";
import { coerceValue } from "./value-checks.js";

export const MAX_PASSES = 5;

export interface ComputedResult {
  /** Passes run (1..MAX_PASSES). */
  passes: number;
  /** Whether the last pass changed nothing. */
  settled: boolean;
}

/**
 * Writes computed values into `values` (keyed by field key). `computedDefs` are active computed
 * definitions; other fields' values are read from `values` as they stand.
 */
export function computeValues(
  computedDefs: readonly FieldDefinition[],
  values: Map<string, unknown>,
  context: RuleContext,
  now: Date,
  limits: FormulaLimits = DEFAULT_FORMULA_LIMITS,
): ComputedResult {
  const order = evaluationOrder(computedDefs);
  const budget = new FormulaBudget(limits);
  // A prototype-less scope object: a key can never reach Object.prototype.
  const fields: Record<string, unknown> = Object.create(null);
  for (const [key, value] of values) fields[key] = value;
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    let changed = false;
    for (const def of order) {
      const next = computeOne(def, { fields, context, now, budget });
      if (!values.has(def.fieldKey) || !valuesEqual(values.get(def.fieldKey), next)) changed = true;
      values.set(def.fieldKey, next);
      fields[def.fieldKey] = next;
    }
    if (!changed) return { passes: pass, settled: true };
  }
  return { passes: MAX_PASSES, settled: false };
}

/**
 * The formula of a computed field and what each bare name in it reads from `values` and the
 * context, through the interpreter's own lookup; undefined for a formula that no longer checks.
 */
export function formulaInputs(
  def: FieldDefinition,
  values: ReadonlyMap<string, unknown>,
  context: RuleContext,
  now: Date,
): { source: string; inputs: Record<string, FormulaValue> } | undefined {
  const formula = compiled(def);
  if (!formula) return undefined;
  const fields: Record<string, unknown> = Object.create(null);
  for (const [key, value] of values) fields[key] = value;
  const inputs: Record<string, FormulaValue> = Object.create(null);
  for (const name of formula.dependencies) inputs[name] = readBareName(name, { fields, context, now });
  return { source: formula.source, inputs };
}

function evaluationOrder(defs: readonly FieldDefinition[]): FieldDefinition[] {
  try {
    return computedOrder(defs, (def) => cachedDependencies(def));
  } catch (error) {
    if (isAppError(error) && error.reason === "FORMULA_CYCLE") return [...defs];
    throw error;
  }
}

function cachedDependencies(def: FieldDefinition): readonly string[] {
  return compiled(def)?.dependencies ?? [];
}

/**
 * The formula's result in the field's stored form: a COMPUTED-type field keeps it as is, a typed
 * field with a computed default gets it coerced to its type, or null when it does not fit.
 */
function computeOne(def: FieldDefinition, scope: FormulaScope): unknown {
  const formula = compiled(def);
  if (!formula) return null;
  const result = evaluateNaming(def, formula, scope);
  if (result === null || def.fieldType === "COMPUTED") return result;
  const typed = coerceValue(def, result);
  return typed.ok ? typed.value : null;
}

/** A budget exceeded is reported on the field whose formula exceeded it (metadata fieldKey). */
function evaluateNaming(def: FieldDefinition, formula: CompiledFormula, scope: FormulaScope): ReturnType<CompiledFormula["evaluate"]> {
  try {
    return formula.evaluate(scope);
  } catch (error) {
    if (!isFormulaLimitError(error)) throw error;
    throw new AppError(error.reason, error.message, { metadata: { ...error.metadata, fieldKey: def.fieldKey }, cause: error });
  }
}

/** A stored formula that no longer checks computes null rather than failing the create. */
function compiled(def: FieldDefinition): CompiledFormula | undefined {
  try {
    return formulaOf(def);
  } catch (error) {
    if (isAppError(error) && error.reason === "INVALID_FORMULA") return undefined;
    throw error;
  }
}
