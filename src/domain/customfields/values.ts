/**
 * Custom field values of an entity: resolution on create (defaults, merge, computed values,
 * validation of every field) and validation on update (only the supplied keys).
 *
 * Every problem is collected and thrown at once as CUSTOM_FIELD_VALIDATION_FAILED, one violation
 * per field (its first failing check) on the path `customFields.<key>`.
 *
 * Keys from the request are only ever looked up in a Map of definitions and written to a Map;
 * results are copied out with Object.fromEntries, so `__proto__`, `constructor` and `prototype`
 * cannot pollute anything. Those keys are refused as unknown.
 */
import { validationFailed, type FieldViolation } from "../errors.js";
import type { RuleContext } from "./conditions.js";
import { computeValues } from "./computed-values.js";
import { isActiveDefinition, isComputedDefinition, type FieldDefinition } from "./definition.js";
import { isFormulaLimitError } from "./formula-budget.js";
import { DEFAULT_CUSTOM_FIELD_LIMITS, type CustomFieldLimits } from "./limits.js";
import type { PatternUse } from "./pattern.js";
import { effectiveField, type EffectiveField } from "./rules.js";
import { isForbiddenKey, toPlainObject } from "./safe-keys.js";
import { checkValue } from "./value-checks.js";

export type CustomFieldValues = Record<string, unknown>;

/**
 * The final customFields of a new entity.
 *
 * Order: static defaults, then rule-based defaults (a rule's default replaces the static one),
 * then the user's values over those defaults, then computed fields (always computed: a user value
 * for one is ignored), evaluated over the merged values so a formula sees what the user sent;
 * then validation of all fields. Inactive definitions are neither defaulted nor validated, and
 * their keys are dropped; soft-deleted definitions count as absent, so their keys are unknown.
 * Formulas that exceed their budget fail the create with FORMULA_LIMIT_EXCEEDED on their field.
 */
export function resolveForCreate(
  defs: readonly FieldDefinition[],
  userValues: unknown,
  context: RuleContext,
  now: Date,
  limits: CustomFieldLimits = DEFAULT_CUSTOM_FIELD_LIMITS,
): CustomFieldValues {
  const supplied = asRecord(userValues);
  const catalog = new Catalog(defs);
  const ctx = withTimestamp(context, now);
  const violations = catalog.unknownKeys(supplied);
  const values = new Map<string, unknown>();
  for (const def of catalog.active) {
    if (isComputedDefinition(def)) continue;
    const field = effectiveField(def, ctx);
    const fromUser = ownSupplied(supplied, def.fieldKey);
    const candidate = fromUser !== undefined ? fromUser : defaultOf(def, field);
    const outcome = settle(def, field, candidate, patternUse(def, limits));
    if (outcome.violation) violations.push(outcome.violation);
    else if (outcome.value !== undefined) values.set(def.fieldKey, outcome.value);
  }
  // Computed fields are not validated, so a failing create need not compute them.
  if (violations.length > 0) throw validationFailed(violations, "CUSTOM_FIELD_VALIDATION_FAILED");
  computeWithinBudget(catalog.active.filter(isComputedDefinition), values, ctx, now, limits);
  return toPlainObject(inDefinitionOrder(catalog.active, values));
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
  for (const def of catalog.active) {
    const value = ownSupplied(supplied, def.fieldKey);
    if (value === undefined || isComputedDefinition(def)) continue;
    const outcome = settle(def, effectiveField(def, ctx), value, patternUse(def, limits));
    if (outcome.violation) violations.push(outcome.violation);
    else values.set(def.fieldKey, outcome.value);
  }
  if (violations.length > 0) throw validationFailed(violations, "CUSTOM_FIELD_VALIDATION_FAILED");
  return toPlainObject(inDefinitionOrder(catalog.active, values));
}

/** The definitions by key: active ones are used, inactive ones known but ignored. */
class Catalog {
  readonly active: FieldDefinition[];
  private readonly known = new Map<string, FieldDefinition>();

  constructor(defs: readonly FieldDefinition[]) {
    const live = defs.filter((def) => def.deletedAt === undefined && !isForbiddenKey(def.fieldKey));
    for (const def of live) this.known.set(def.fieldKey, def);
    this.active = [...this.known.values()].filter(isActiveDefinition).sort(byDisplayOrder);
  }

  unknownKeys(supplied: Readonly<Record<string, unknown>>): FieldViolation[] {
    return Object.keys(supplied)
      .filter((key) => isForbiddenKey(key) || !this.known.has(key))
      .map((key) => ({ field: fieldPath(key), description: "is not a custom field of this entity type" }));
  }
}

interface Settled {
  value?: unknown;
  violation?: FieldViolation;
}

function computeWithinBudget(
  computedDefs: readonly FieldDefinition[],
  values: Map<string, unknown>,
  context: RuleContext,
  now: Date,
  limits: CustomFieldLimits,
): void {
  try {
    computeValues(computedDefs, values, context, now, limits.formulas);
  } catch (error) {
    if (!isFormulaLimitError(error)) throw error;
    const key = error.metadata.fieldKey ?? "";
    throw validationFailed([{ field: fieldPath(key), description: error.message }], "FORMULA_LIMIT_EXCEEDED");
  }
}

/** A field's pattern runs within its tenant's share of the compiled-pattern cache. */
function patternUse(def: FieldDefinition, limits: CustomFieldLimits): PatternUse {
  return { tenant: def.tenantId, limits: limits.patterns };
}

/** Required first, then type and constraints; null and absence skip them for optional fields. */
function settle(def: FieldDefinition, field: EffectiveField, value: unknown, patterns: PatternUse): Settled {
  if (isEmpty(value)) {
    if (field.required) return { violation: requiredViolation(def, field) };
    if (value === undefined || value === null) return { value };
  }
  const checked = checkValue(def, value, field.validation, patterns);
  if (checked.ok) return { value: checked.value };
  return { violation: { field: fieldPath(def.fieldKey), description: checked.description } };
}

function requiredViolation(def: FieldDefinition, field: EffectiveField): FieldViolation {
  const violation: FieldViolation = { field: fieldPath(def.fieldKey), description: "is required" };
  if (field.requiredByRule !== undefined) {
    violation.rule = field.requiredByRule;
    violation.description = `is required by rule "${field.requiredByRule}"`;
  }
  return violation;
}

/** A static default is stored as text; a JSON field's text default is JSON text. */
function defaultOf(def: FieldDefinition, field: EffectiveField): unknown {
  const value = field.defaultValue;
  if (def.fieldType === "JSON" && field.defaultFromRule === undefined && typeof value === "string") {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

/** Missing, null, or text with nothing but white space. */
function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

function ownSupplied(supplied: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(supplied, key) ? supplied[key] : undefined;
}

/** A rule or formula may read `timestamp`; the injected time fills it unless the caller did. */
function withTimestamp(context: RuleContext, now: Date): RuleContext {
  if (Object.hasOwn(context, "timestamp")) return context;
  return { ...context, timestamp: now.toISOString() };
}

function asRecord(value: unknown): Readonly<Record<string, unknown>> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw validationFailed(
      [{ field: "customFields", description: "must be an object keyed by field key" }],
      "CUSTOM_FIELD_VALIDATION_FAILED",
    );
  }
  return value as Record<string, unknown>;
}

function inDefinitionOrder(active: readonly FieldDefinition[], values: Map<string, unknown>): Map<string, unknown> {
  const ordered = new Map<string, unknown>();
  for (const def of active) if (values.has(def.fieldKey)) ordered.set(def.fieldKey, values.get(def.fieldKey));
  return ordered;
}

function byDisplayOrder(a: FieldDefinition, b: FieldDefinition): number {
  return a.displayOrder - b.displayOrder || (a.fieldKey < b.fieldKey ? -1 : a.fieldKey > b.fieldKey ? 1 : 0);
}

export function fieldPath(key: string): string {
  return `customFields.${key}`;
}
