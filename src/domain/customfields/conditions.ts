/**
 * Rule conditions: one operator applied to the value at a dotted context path, combined by AND/OR
 * groups. Evaluation never throws; an operator that does not apply to the values (greaterThan on
 * an object, startsWith on a number, an operator unknown at run time) is simply false, because
 * definitions were checked at save time and a create must not fail on a stored rule.
 */
import { compareValues, valuesEqual } from "./compare.js";
import type { Condition, ConditionGroup } from "./definition.js";
import { getPath } from "./paths.js";

export const CONDITION_OPERATORS = [
  "equals",
  "notEquals",
  "greaterThan",
  "greaterThanOrEqual",
  "lessThan",
  "lessThanOrEqual",
  "in",
  "notIn",
  "contains",
  "startsWith",
  "endsWith",
  "exists",
  "notExists",
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** Operators whose `value` must be a list. */
export const LIST_OPERATORS: ReadonlySet<string> = new Set(["in", "notIn"]);

export function isConditionOperator(name: unknown): name is ConditionOperator {
  return typeof name === "string" && (CONDITION_OPERATORS as readonly string[]).includes(name);
}

/** The context a rule sees: entity, user, organization, timestamp and caller-supplied keys. */
export type RuleContext = Readonly<Record<string, unknown>>;

export function applyOperator(operator: string, actual: unknown, expected: unknown): boolean {
  switch (operator) {
    case "equals":
      return valuesEqual(actual, expected);
    case "notEquals":
      return !valuesEqual(actual, expected);
    case "greaterThan":
      return ordered(actual, expected, (o) => o > 0);
    case "greaterThanOrEqual":
      return ordered(actual, expected, (o) => o >= 0);
    case "lessThan":
      return ordered(actual, expected, (o) => o < 0);
    case "lessThanOrEqual":
      return ordered(actual, expected, (o) => o <= 0);
    case "in":
      return Array.isArray(expected) && expected.some((item) => valuesEqual(actual, item));
    case "notIn":
      return Array.isArray(expected) && !expected.some((item) => valuesEqual(actual, item));
    case "contains":
      return contains(actual, expected);
    case "startsWith":
      return typeof actual === "string" && typeof expected === "string" && actual.startsWith(expected);
    case "endsWith":
      return typeof actual === "string" && typeof expected === "string" && actual.endsWith(expected);
    case "exists":
      return actual !== null && actual !== undefined;
    case "notExists":
      return actual === null || actual === undefined;
    default:
      return false;
  }
}

export function evaluateCondition(condition: Condition, context: RuleContext): boolean {
  return applyOperator(condition.operator, getPath(context, condition.field), condition.value);
}

/** AND of no conditions holds, OR of no conditions does not (the usual identities). */
export function evaluateGroup(group: ConditionGroup, context: RuleContext): boolean {
  const conditions = group.conditions ?? [];
  if (group.operator === "OR") return conditions.some((c) => evaluateCondition(c, context));
  if (group.operator === "AND") return conditions.every((c) => evaluateCondition(c, context));
  return false;
}

function ordered(actual: unknown, expected: unknown, test: (order: number) => boolean): boolean {
  const order = compareValues(actual, expected);
  return order !== undefined && test(order);
}

/** A string contains a substring; a list contains an element. */
function contains(actual: unknown, expected: unknown): boolean {
  if (typeof actual === "string") return typeof expected === "string" && actual.includes(expected);
  if (Array.isArray(actual)) return actual.some((item) => valuesEqual(item, expected));
  return false;
}
