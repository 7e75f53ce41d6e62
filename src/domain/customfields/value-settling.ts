/**
 * The pieces value resolution and update validation share: the catalog of definitions, one
 * value settled against its field (required, type, constraints) and the request's shape.
 *
 * Keys from the request are only ever looked up in a Map of definitions and written to a Map;
 * results are copied out with Object.fromEntries, so `__proto__`, `constructor` and `prototype`
 * cannot pollute anything. Those keys are refused as unknown.
 */
import { validationFailed, type FieldViolation } from "../errors.js";
import type { RuleContext } from "./conditions.js";
import { isActiveDefinition, type FieldDefinition } from "./definition.js";
import type { CustomFieldLimits } from "./limits.js";
import type { PatternUse } from "./pattern.js";
import { PatternBudget } from "./pattern-budget.js";
import type { EffectiveField } from "./rules.js";
import { isForbiddenKey } from "./safe-keys.js";
import { checkValueTraced, type ConstraintCheck } from "./value-checks.js";

/** The definitions by key: active ones are used, inactive ones known but ignored. */
export class Catalog {
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

export interface Settled {
  value?: unknown;
  violation?: FieldViolation;
  /** The checks made, in order ("required", "type", then the constraints' names). */
  constraints: ConstraintCheck[];
}

/**
 * A field's pattern runs within its tenant's share of the compiled-pattern cache and the request's
 * budget for pattern checks (one per resolve or validation: patternBudget).
 */
export function patternUse(def: FieldDefinition, limits: CustomFieldLimits, budget: PatternBudget): PatternUse {
  return { tenant: def.tenantId, limits: limits.patterns, budget };
}

/** The budget all pattern checks of one request share. */
export function patternBudget(limits: CustomFieldLimits): PatternBudget {
  return new PatternBudget(limits.patterns);
}

/** Required first, then type and constraints; null and absence skip them for optional fields. */
export function settle(def: FieldDefinition, field: EffectiveField, value: unknown, patterns: PatternUse): Settled {
  const constraints: ConstraintCheck[] = [];
  if (isEmpty(value)) {
    if (field.required) return { violation: requiredViolation(def, field), constraints: [{ name: "required", passed: false }] };
    if (value === undefined || value === null) return { value, constraints };
  } else if (field.required) {
    constraints.push({ name: "required", passed: true });
  }
  const traced = checkValueTraced(def, value, field.validation, patterns);
  constraints.push(...traced.constraints);
  if (traced.checked.ok) return { value: traced.checked.value, constraints };
  return { violation: { field: fieldPath(def.fieldKey), description: traced.checked.description }, constraints };
}

function requiredViolation(def: FieldDefinition, field: EffectiveField): FieldViolation {
  const violation: FieldViolation = { field: fieldPath(def.fieldKey), description: "is required" };
  if (field.requiredByRule !== undefined) {
    violation.rule = field.requiredByRule;
    violation.description = `is required by rule "${field.requiredByRule}"`;
  }
  return violation;
}

/** The static default as a value: it is stored as text, and a JSON field's text is JSON text. */
export function staticDefaultOf(def: FieldDefinition): unknown {
  return parsedDefault(def, def.defaultValue);
}

/** The field's default in context: a rule's default is a value already, a static one is text. */
export function defaultOf(def: FieldDefinition, field: EffectiveField): unknown {
  return field.defaultFromRule === undefined ? parsedDefault(def, field.defaultValue) : field.defaultValue;
}

function parsedDefault(def: FieldDefinition, value: unknown): unknown {
  if (def.fieldType === "JSON" && typeof value === "string") {
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

export function ownSupplied(supplied: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(supplied, key) ? supplied[key] : undefined;
}

/** A rule or formula may read `timestamp`; the injected time fills it unless the caller did. */
export function withTimestamp(context: RuleContext, now: Date): RuleContext {
  if (Object.hasOwn(context, "timestamp")) return context;
  return { ...context, timestamp: now.toISOString() };
}

export function asRecord(value: unknown): Readonly<Record<string, unknown>> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw validationFailed(
      [{ field: "customFields", description: "must be an object keyed by field key" }],
      "CUSTOM_FIELD_VALIDATION_FAILED",
    );
  }
  return value as Record<string, unknown>;
}

export function inDefinitionOrder(active: readonly FieldDefinition[], values: ReadonlyMap<string, unknown>): Map<string, unknown> {
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
