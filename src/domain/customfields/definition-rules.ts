/**
 * Save-time checks of a definition (create or update), returning every violation at once with
 * field names as in the JSON API (camelCase, dotted, indexed). The caller throws them, usually
 * through definitionError().
 */
import { AppError, validationFailed, type ErrorReason, type FieldViolation } from "../errors.js";
import { isConditionOperator, LIST_OPERATORS } from "./conditions.js";
import { cycleMessage, findComputedCycle } from "./computed-graph.js";
import {
  DEFAULT_STRATEGIES,
  FIELD_TYPES,
  isActiveDefinition,
  isComputedDefinition,
  type FieldDefinition,
  type FieldValidation,
  type Rule,
  type RuleOutcome,
} from "./definition.js";
import { checkFormula } from "./formula.js";
import { formulaGrowthProblem } from "./formula-growth.js";
import { DEFAULT_CUSTOM_FIELD_LIMITS, type CustomFieldLimits } from "./limits.js";
import { isSafePath } from "./paths.js";
import { checkPattern, patternCompileSteps, type PatternLimits } from "./pattern.js";
import { isForbiddenKey } from "./safe-keys.js";
import { parseDateText } from "./scalars.js";
import { checkValue, coerceValue } from "./value-checks.js";

/** A violation plus the error reason it stands for (schema, formula, cycle, pattern). */
export interface DefinitionViolation extends FieldViolation {
  reason: ErrorReason;
}

export type DefinitionCandidate = Pick<
  FieldDefinition,
  | "entityType"
  | "fieldKey"
  | "fieldLabel"
  | "fieldType"
  | "defaultStrategy"
  | "isActive"
  | "defaultRules"
  | "validation"
  | "validationRules"
  | "uiConfig"
> &
  Partial<Pick<FieldDefinition, "id" | "tenantId" | "defaultValue" | "computedFormula" | "deletedAt">>;

export const FIELD_KEY_PATTERN = /^[a-z_]+$/;
export const MAX_FIELD_KEY_LENGTH = 64;

/**
 * All violations of a candidate definition; `siblings` are the other stored definitions of the
 * same tenant and entity type (the candidate's stored self, if any, is skipped by id or key).
 */
export function checkDefinition(
  candidate: DefinitionCandidate,
  siblings: readonly FieldDefinition[],
  limits: CustomFieldLimits = DEFAULT_CUSTOM_FIELD_LIMITS,
): DefinitionViolation[] {
  const found = new Problems();
  const patterns = limits.patterns;
  checkIdentity(candidate, found);
  checkStrategy(candidate, found);
  checkSelect(candidate, found);
  checkValidation(candidate.validation ?? {}, "validation", found, patterns);
  checkRules(candidate, "defaultRules", candidate.defaultRules ?? [], found, patterns);
  checkRules(candidate, "validationRules", candidate.validationRules ?? [], found, patterns);
  checkDefault(candidate, found, patterns);
  checkCycle(candidate, siblings, found);
  checkGrowth(candidate, siblings, found, limits);
  checkPatternShare(candidate, siblings, found, patterns);
  return found.list();
}

/** entityType and fieldKey are fixed once created (request-schema rule 4). */
export function checkImmutable(
  existing: Pick<FieldDefinition, "entityType" | "fieldKey">,
  patch: { entityType?: string; fieldKey?: string },
): DefinitionViolation[] {
  const violations: DefinitionViolation[] = [];
  for (const key of ["entityType", "fieldKey"] as const) {
    if (patch[key] !== undefined && patch[key] !== existing[key]) {
      violations.push({ field: key, description: "cannot be changed after creation", reason: "FIELD_KEY_IMMUTABLE" });
    }
  }
  return violations;
}

/** One invalid-argument error; its reason is the violations' common reason, else VALIDATION_FAILED. */
export function definitionError(violations: readonly DefinitionViolation[]): AppError {
  const reasons = new Set(violations.map((v) => v.reason));
  const reason: ErrorReason = reasons.size === 1 ? [...reasons][0] : "VALIDATION_FAILED";
  const plain = violations.map(({ reason: _reason, ...violation }) => violation);
  return validationFailed(plain, reason);
}

/** Collects violations, keeping the first one per field path. */
class Problems {
  private readonly byField = new Map<string, DefinitionViolation>();

  add(field: string, description: string, reason: ErrorReason = "VALIDATION_FAILED"): void {
    if (!this.byField.has(field)) this.byField.set(field, { field, description, reason });
  }

  /** Records an AppError thrown by a checker (formula, pattern) on a field. */
  addError(field: string, error: unknown): void {
    if (error instanceof AppError) this.add(field, error.message, error.reason);
    else throw error;
  }

  list(): DefinitionViolation[] {
    return [...this.byField.values()];
  }
}

function checkIdentity(c: DefinitionCandidate, found: Problems): void {
  if (typeof c.fieldKey !== "string" || !FIELD_KEY_PATTERN.test(c.fieldKey)) {
    found.add("fieldKey", "must contain only lowercase letters and underscores");
  } else if (c.fieldKey.length > MAX_FIELD_KEY_LENGTH) {
    found.add("fieldKey", `must be at most ${MAX_FIELD_KEY_LENGTH} characters long`);
  } else if (isForbiddenKey(c.fieldKey)) {
    found.add("fieldKey", `"${c.fieldKey}" is reserved`);
  }
  if (typeof c.entityType !== "string" || c.entityType.trim() === "") found.add("entityType", "must not be empty");
  if (typeof c.fieldLabel !== "string" || c.fieldLabel.trim() === "") found.add("fieldLabel", "must not be empty");
  if (!(FIELD_TYPES as readonly string[]).includes(c.fieldType)) found.add("fieldType", "is not a known field type");
  if (!(DEFAULT_STRATEGIES as readonly string[]).includes(c.defaultStrategy)) {
    found.add("defaultStrategy", "is not a known default strategy");
  }
}

/** Rules 1 and 2: a computed field needs a formula, a rule-based default needs rules. */
function checkStrategy(c: DefinitionCandidate, found: Problems): void {
  const formula = c.computedFormula;
  if (isComputedDefinition(c) && (formula === undefined || formula.trim() === "")) {
    found.add("computedFormula", "is required for a computed field");
  } else if (formula !== undefined && formula !== "") {
    try {
      checkFormula(formula);
    } catch (error) {
      found.addError("computedFormula", error);
    }
  }
  if (c.defaultStrategy === "RULE_BASED" && (c.defaultRules ?? []).length === 0) {
    found.add("defaultRules", "needs at least one rule for the rule-based strategy");
  }
}

/** Rule 3: a select field needs options, whose values must be distinct and not empty. */
function checkSelect(c: DefinitionCandidate, found: Problems): void {
  const options = c.uiConfig?.options ?? [];
  if (c.fieldType === "SELECT" && options.length === 0) {
    found.add("uiConfig.options", "needs at least one option for a select field");
  }
  const seen = new Set<string>();
  options.forEach((option, i) => {
    if (typeof option.value !== "string" || option.value === "") {
      found.add(`uiConfig.options[${i}].value`, "must not be empty");
    } else if (seen.has(option.value)) {
      found.add(`uiConfig.options[${i}].value`, `duplicates the option value "${option.value}"`);
    }
    seen.add(option.value);
  });
}

function checkValidation(v: FieldValidation, at: string, found: Problems, patterns: PatternLimits): void {
  if (v.min !== undefined && !Number.isFinite(v.min)) found.add(`${at}.min`, "must be a finite number");
  if (v.max !== undefined && !Number.isFinite(v.max)) found.add(`${at}.max`, "must be a finite number");
  if (v.min !== undefined && v.max !== undefined && v.min > v.max) found.add(`${at}.min`, "must not exceed max");
  for (const key of ["minLength", "maxLength"] as const) {
    const value = v[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      found.add(`${at}.${key}`, "must be a non-negative integer");
    }
  }
  if (v.minLength !== undefined && v.maxLength !== undefined && v.minLength > v.maxLength) {
    found.add(`${at}.minLength`, "must not exceed maxLength");
  }
  for (const key of ["minDate", "maxDate"] as const) {
    const value = v[key];
    if (value !== undefined && parseDateText(value)?.kind !== "date") found.add(`${at}.${key}`, "must be a YYYY-MM-DD date");
  }
  if (v.minDate !== undefined && v.maxDate !== undefined && v.minDate > v.maxDate) {
    found.add(`${at}.minDate`, "must not be after maxDate");
  }
  if (v.enum !== undefined && !v.enum.every((item) => typeof item === "string")) {
    found.add(`${at}.enum`, "must list strings");
  }
  if (v.pattern !== undefined && v.pattern !== "") {
    try {
      checkPattern(v.pattern, patterns);
    } catch (error) {
      found.addError(`${at}.pattern`, error);
    }
  }
}

function checkRules(c: DefinitionCandidate, list: string, rules: readonly Rule[], found: Problems, patterns: PatternLimits): void {
  rules.forEach((rule, i) => {
    const at = `${list}[${i}]`;
    if (typeof rule.name !== "string" || rule.name.trim() === "") found.add(`${at}.name`, "must not be empty");
    if (!Number.isFinite(rule.priority)) found.add(`${at}.priority`, "must be a finite number");
    if (!rule.when) {
      found.add(`${at}.when`, "is required");
    } else {
      if (rule.when.operator !== "AND" && rule.when.operator !== "OR") found.add(`${at}.when.operator`, "must be AND or OR");
      (rule.when.conditions ?? []).forEach((condition, j) => {
        const cat = `${at}.when.conditions[${j}]`;
        if (typeof condition.field !== "string" || !isSafePath(condition.field)) {
          found.add(`${cat}.field`, "must be a dotted path of non-empty, non-reserved names");
        }
        if (!isConditionOperator(condition.operator)) {
          found.add(`${cat}.operator`, `"${String(condition.operator)}" is not a condition operator`);
        } else if (LIST_OPERATORS.has(condition.operator) && !Array.isArray(condition.value)) {
          found.add(`${cat}.value`, `must be a list for ${condition.operator}`);
        }
      });
    }
    checkOutcome(c, rule.then, `${at}.then`, found, patterns);
    checkOutcome(c, rule.else, `${at}.else`, found, patterns);
  });
}

function checkOutcome(c: DefinitionCandidate, outcome: RuleOutcome | undefined, at: string, found: Problems, patterns: PatternLimits): void {
  if (!outcome) return;
  if (outcome.validation) checkValidation(outcome.validation, `${at}.validation`, found, patterns);
  if (outcome.defaultValue !== undefined && outcome.defaultValue !== null && !isComputedDefinition(c)) {
    const typed = coerceValue(c, outcome.defaultValue);
    if (!typed.ok) found.add(`${at}.defaultValue`, typed.description);
  }
}

/** A static default must itself be a valid value of the field. */
function checkDefault(c: DefinitionCandidate, found: Problems, patterns: PatternLimits): void {
  if (c.defaultValue === undefined || c.defaultValue === "" || isComputedDefinition(c)) return;
  const value = c.fieldType === "JSON" ? parseJsonText(c.defaultValue) : c.defaultValue;
  const checked = checkValue(c, value, c.validation ?? {}, { tenant: c.tenantId ?? "", limits: patterns });
  if (!checked.ok) found.add("defaultValue", checked.description);
}

/** Computed fields may not depend on each other in a loop (checked with the candidate in place). */
function checkCycle(c: DefinitionCandidate, siblings: readonly FieldDefinition[], found: Problems): void {
  if (!isComputedDefinition(c) || !c.isActive || c.deletedAt !== undefined || !c.computedFormula) return;
  const others = siblings.filter(
    (s) => isActiveDefinition(s) && s.fieldKey !== c.fieldKey && (c.id === undefined || s.id !== c.id),
  );
  const cycle = findComputedCycle([...others, c], c.fieldKey);
  if (cycle) found.add("computedFormula", cycleMessage(cycle), "FORMULA_CYCLE");
}

/**
 * Constant text growth across computed fields, checked with the candidate in place: a change to
 * one formula can make a field that reads it too large, so every field of the entity type counts.
 */
function checkGrowth(c: DefinitionCandidate, siblings: readonly FieldDefinition[], found: Problems, limits: CustomFieldLimits): void {
  if (!isComputedDefinition(c) || !c.isActive || c.deletedAt !== undefined || !c.computedFormula) return;
  const others = siblings.filter(
    (s) => isActiveDefinition(s) && s.fieldKey !== c.fieldKey && (c.id === undefined || s.id !== c.id),
  );
  const problem = formulaGrowthProblem([...others, c], limits.formulas);
  if (problem) found.add("computedFormula", problem, "FORMULA_LIMIT_EXCEEDED");
}

/**
 * A create may compile every pattern of its entity type on a cold cache, within one request's
 * compile budget (pattern-budget.ts): so the entity type's distinct patterns together, the
 * candidate's in place, must compile within it. Checked only when the candidate brings a pattern,
 * so an older entity type over the budget can still be edited.
 */
function checkPatternShare(c: DefinitionCandidate, siblings: readonly FieldDefinition[], found: Problems, limits: PatternLimits): void {
  const own = patternsOf(c);
  if (own.length === 0 || !c.isActive || c.deletedAt !== undefined || found.list().length > 0) return;
  const others = siblings.filter((s) => isActiveDefinition(s) && s.fieldKey !== c.fieldKey && (c.id === undefined || s.id !== c.id));
  const share = limits.maxRequestCompileSteps;
  let steps = 0;
  for (const pattern of new Set([...others.flatMap(patternsOf), ...own])) {
    try {
      steps += patternCompileSteps(pattern, limits);
    } catch {
      // A stored pattern the engine now refuses is never compiled: its field reports it unusable.
    }
  }
  if (steps <= share) return;
  found.add(
    "validation.pattern",
    `the patterns of ${c.entityType}'s fields would together take up to ${steps} steps to compile, more than the ${share} one request may spend compiling (PATTERN_MAX_REQUEST_COMPILE_STEPS): use fewer distinct patterns, or ASCII classes instead of Unicode ones (\\p{L})`,
    "UNSAFE_PATTERN",
  );
}

/** Every pattern a definition may check its values with: its own and its rules' outcomes'. */
function patternsOf(def: Pick<FieldDefinition, "validation" | "defaultRules" | "validationRules">): string[] {
  const validations = [def.validation, ...[...(def.defaultRules ?? []), ...(def.validationRules ?? [])].flatMap((rule) => [rule.then?.validation, rule.else?.validation])];
  return validations.flatMap((v) => (v?.pattern !== undefined && v.pattern !== "" ? [v.pattern] : []));
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
