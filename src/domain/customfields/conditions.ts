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

/**
 * The context a rule sees: entity (its standard fields and `customFields` as resolved so far),
 * user, organization, timestamp and caller-supplied keys (docs/custom-fields.md).
 */
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

/** One condition as evaluated, for an explanation: what it expected, what it found, whether it held. */
export interface ConditionTrace {
  field: string;
  operator: string;
  expected: unknown;
  actual: unknown;
  held: boolean;
}

export function evaluateCondition(condition: Condition, context: RuleContext): boolean {
  return traceCondition(condition, context).held;
}

export function traceCondition(condition: Condition, context: RuleContext): ConditionTrace {
  const actual = getPath(context, condition.field);
  const held = applyOperator(condition.operator, actual, condition.value);
  return { field: condition.field, operator: condition.operator, expected: condition.value, actual, held };
}

/**
 * AND of no conditions holds, OR of no conditions does not (the usual identities). With `trace`,
 * every condition is evaluated and recorded (no short circuit: evaluation is pure, so the answer
 * is the same) for an explanation of why the group held or not.
 */
export function evaluateGroup(group: ConditionGroup, context: RuleContext, trace?: ConditionTrace[]): boolean {
  const conditions = group.conditions ?? [];
  if (group.operator !== "OR" && group.operator !== "AND") return false;
  if (trace === undefined) {
    if (group.operator === "OR") return conditions.some((c) => evaluateCondition(c, context));
    return conditions.every((c) => evaluateCondition(c, context));
  }
  const traced = conditions.map((c) => traceCondition(c, context));
  trace.push(...traced);
  return group.operator === "OR" ? traced.some((t) => t.held) : traced.every((t) => t.held);
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
