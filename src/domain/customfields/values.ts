/**
 * Custom field values of an entity: resolution on create (defaults, merge, computed values,
 * validation of every field, resolution.ts) and validation on update (only the supplied keys).
 *
 * Every problem is collected and thrown at once as CUSTOM_FIELD_VALIDATION_FAILED, one violation
 * per field (its first failing check) on the path `customFields.<key>`.
 */
import { validationFailed } from "../errors.js";
import type { RuleContext } from "./conditions.js";
import { isComputedDefinition, type FieldDefinition } from "./definition.js";
import { DEFAULT_CUSTOM_FIELD_LIMITS, type CustomFieldLimits } from "./limits.js";
import { refusalReason, resolveTraced } from "./resolution.js";
import { effectiveField } from "./rules.js";
import { toPlainObject } from "./safe-keys.js";
import { asRecord, Catalog, inDefinitionOrder, ownSupplied, patternBudget, patternUse, settle, withTimestamp } from "./value-settling.js";

export type CustomFieldValues = Record<string, unknown>;

/**
 * The final customFields of a new entity, as resolution.ts stages them: static defaults, then
 * rule-based defaults, then the user's values over those, then computed fields (a user value for
 * one is ignored), all validated, computed ones included. Inactive definitions are neither
 * defaulted nor validated, and their keys are dropped; soft-deleted definitions count as absent,
 * so their keys are unknown. Formulas that exceed their budget fail the create with
 * FORMULA_LIMIT_EXCEEDED on their field when that is the only problem.
 */
export function resolveForCreate(
  defs: readonly FieldDefinition[],
  userValues: unknown,
  context: RuleContext,
  now: Date,
  limits: CustomFieldLimits = DEFAULT_CUSTOM_FIELD_LIMITS,
): CustomFieldValues {
  const resolution = resolveTraced(defs, userValues, context, now, limits);
  const reason = refusalReason(resolution);
  if (reason === undefined) return resolution.customFields;
  throw validationFailed(resolution.violations, reason);
}

/**
 * The supplied customFields of an update, validated and coerced; the caller merges them over the
 * stored ones. No defaults are evaluated. A required field may not be cleared (null or empty).
 * Keys of inactive definitions and of computed fields are dropped, so stored values stay.
 */
export function validateForUpdate(
  defs: readonly FieldDefinition[],
  suppliedValues: unknown,
  context: RuleContext,
  now: Date,
  limits: CustomFieldLimits = DEFAULT_CUSTOM_FIELD_LIMITS,
): CustomFieldValues {
  const supplied = asRecord(suppliedValues);
  const catalog = new Catalog(defs);
  const ctx = withTimestamp(context, now);
  const violations = catalog.unknownKeys(supplied);
  const values = new Map<string, unknown>();
  const budget = patternBudget(limits);
  for (const def of catalog.active) {
    const value = ownSupplied(supplied, def.fieldKey);
    if (value === undefined || isComputedDefinition(def)) continue;
    const outcome = settle(def, effectiveField(def, ctx), value, patternUse(def, limits, budget));
    if (outcome.violation) violations.push(outcome.violation);
    else values.set(def.fieldKey, outcome.value);
  }
  if (violations.length > 0) throw validationFailed(violations, "CUSTOM_FIELD_VALIDATION_FAILED");
  return toPlainObject(inDefinitionOrder(catalog.active, values));
}
