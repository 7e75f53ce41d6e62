/**
 * Save-time bound of what computed fields build from constants alone. Each formula is short, but
 * fields reading each other multiply: `b = a + a + a`, `c = b + b + b`, ... reach hundreds of
 * millions of characters without any input. Counting only constants (an input value counts as
 * empty text here; the evaluation budget bounds the rest), the longest text each computed field
 * can produce is computed in dependency order; a definition that would let any field exceed the
 * text limit, or all formulas together exceed the step budget on a resolve, is refused.
 */
import { isAppError } from "../errors.js";
import { computedOrder } from "./computed-graph.js";
import type { FieldDefinition } from "./definition.js";
import type { Expr } from "./formula-ast.js";
import type { FormulaLimits } from "./formula-budget.js";
import { checkFormula } from "./formula-check.js";

type GrowthDefinition = Pick<FieldDefinition, "fieldKey" | "fieldType" | "defaultStrategy" | "computedFormula">;

/** Characters of the text of any number (a sign, 17 digits, a point, an exponent). */
const NUMBER_TEXT = 24;

/** Passes every resolve runs at least: the second confirms the first (computed-values.ts). */
const MIN_PASSES = 2;

/** The first problem found, as a message for the candidate's computedFormula; undefined when fine. */
export function formulaGrowthProblem(defs: readonly GrowthDefinition[], limits: FormulaLimits): string | undefined {
  let order: GrowthDefinition[];
  try {
    order = computedOrder(defs);
  } catch (error) {
    // A cycle is reported on its own (FORMULA_CYCLE).
    if (isAppError(error) && error.reason === "FORMULA_CYCLE") return undefined;
    throw error;
  }
  const bounds = new Map<string, number>();
  let nodes = 0;
  for (const def of order) {
    const expr = parsed(def);
    if (!expr) continue;
    nodes += nodeCount(expr);
    const bound = textBound(expr, (name) => bounds.get(name) ?? 0);
    if (bound > limits.maxTextLength) {
      return `computed field "${def.fieldKey}" would produce text of at least ${bound} characters from constants alone; at most ${limits.maxTextLength} are allowed`;
    }
    bounds.set(def.fieldKey, bound);
  }
  if (nodes * MIN_PASSES > limits.maxSteps) {
    return `the computed fields have ${nodes} formula nodes together; a resolve evaluates them at least ${MIN_PASSES} times within ${limits.maxSteps} steps`;
  }
  return undefined;
}

function parsed(def: GrowthDefinition): Expr | undefined {
  if (!def.computedFormula) return undefined;
  try {
    return checkFormula(def.computedFormula);
  } catch (error) {
    // An invalid formula is reported on its own (INVALID_FORMULA).
    if (isAppError(error) && error.reason === "INVALID_FORMULA") return undefined;
    throw error;
  }
}

/** Longest text `expr` can produce when every input is empty and computed fields are at their bounds. */
function textBound(expr: Expr, fieldBound: (name: string) => number): number {
  const bound = (e: Expr): number => textBound(e, fieldBound);
  switch (expr.kind) {
    case "constant":
      return typeof expr.value === "string" ? expr.value.length : NUMBER_TEXT;
    case "field":
      return fieldBound(expr.name);
    case "path":
    case "unary":
      return NUMBER_TEXT;
    case "binary":
      return expr.op === "+" ? bound(expr.left) + bound(expr.right) : NUMBER_TEXT;
    case "conditional":
      return Math.max(bound(expr.then), bound(expr.otherwise));
    case "call":
      if (expr.name === "uppercase") return 3 * bound(expr.args[0]);
      if (expr.name === "lowercase") return 2 * bound(expr.args[0]);
      if (expr.name === "string") return Math.max(NUMBER_TEXT, bound(expr.args[0]));
      return NUMBER_TEXT;
  }
}

function nodeCount(expr: Expr): number {
  switch (expr.kind) {
    case "unary":
      return 1 + nodeCount(expr.arg);
    case "binary":
      return 1 + nodeCount(expr.left) + nodeCount(expr.right);
    case "conditional":
      return 1 + nodeCount(expr.test) + nodeCount(expr.then) + nodeCount(expr.otherwise);
    case "call":
      return 1 + expr.args.reduce((sum, arg) => sum + nodeCount(arg), 0);
    default:
      return 1;
  }
}
