/**
 * A small tree-walking interpreter over a checked formula (formula-ast.ts). mathjs's evaluate is
 * never used on user input: this interpreter can only read own properties of the scope and call
 * the listed functions, so nothing outside the context is reachable.
 *
 * Failure is a value, not an exception: division by zero, a result that is not a finite number,
 * an operand of the wrong type, a missing field or a bad date all yield null. A computed field
 * then holds null instead of making the whole create fail on a formula the tenant saved. The one
 * exception is the budget (formula-budget.ts): exceeding it throws FORMULA_LIMIT_EXCEEDED.
 */
import { compareValues, valuesEqual } from "./compare.js";
import type { BinaryOperator, Expr, FunctionName } from "./formula-ast.js";
import { FormulaBudget, isFormulaLimitError } from "./formula-budget.js";
import { ownValue } from "./safe-keys.js";
import { parseBooleanText, parseDateText, parseNumberText, utcDay } from "./scalars.js";

/** The values a formula computes with. */
export type FormulaValue = number | string | boolean | null;

export interface FormulaScope {
  /** Current custom field values by key; bare names in the formula read them first. */
  fields?: Readonly<Record<string, unknown>>;
  /** entity, user, organization, customer, timestamp and other caller keys. */
  context?: Readonly<Record<string, unknown>>;
  /** The current time, injected: today() and now() read it. */
  now: Date;
  /** Shared by every formula of one resolve; a fresh default budget per evaluation without it. */
  budget?: FormulaBudget;
}

/** The scope as the interpreter uses it: always with a budget. */
type BudgetedScope = FormulaScope & { budget: FormulaBudget };

export function evaluateExpr(expr: Expr, scope: FormulaScope): FormulaValue {
  const budgeted: BudgetedScope = { ...scope, budget: scope.budget ?? new FormulaBudget() };
  try {
    return finite(evaluate(expr, budgeted));
  } catch (error) {
    if (isFormulaLimitError(error)) throw error;
    // The interpreter is not expected to throw otherwise; should it, the documented result is null.
    return null;
  }
}

function evaluate(expr: Expr, scope: BudgetedScope): FormulaValue {
  scope.budget.step();
  switch (expr.kind) {
    case "constant":
      return expr.value;
    case "field":
      return readBareName(expr.name, scope);
    case "path":
      return toFormulaValue(lookupPath(expr.root, expr.segments, scope));
    case "unary":
      return unary(expr.op, evaluate(expr.arg, scope));
    case "binary":
      return binary(expr, scope);
    case "conditional":
      return truthy(evaluate(expr.test, scope)) ? evaluate(expr.then, scope) : evaluate(expr.otherwise, scope);
    case "call":
      return callFunction(expr.name, expr.args.map((arg) => evaluate(arg, scope)), scope);
  }
}

/** What a bare name in a formula reads; also used to explain a computed value's inputs. */
export function readBareName(name: string, scope: FormulaScope): FormulaValue {
  return toFormulaValue(lookupName(name, scope, "fields-first"));
}

/** A bare name is a field key first; a path root (entity, user, ...) is a context key first. */
function lookupName(name: string, scope: FormulaScope, order: "fields-first" | "context-first"): unknown {
  const fromFields = ownValue(scope.fields, name);
  const fromContext = ownValue(scope.context, name);
  if (order === "fields-first") return fromFields !== undefined ? fromFields : fromContext;
  return fromContext !== undefined ? fromContext : fromFields;
}

function lookupPath(root: string, segments: readonly string[], scope: FormulaScope): unknown {
  let current = lookupName(root, scope, "context-first");
  for (const segment of segments) {
    current = ownValue(current, segment);
    if (current === undefined) return undefined;
  }
  return current;
}

/** Objects and arrays are not formula values; dates become ISO text. */
function toFormulaValue(value: unknown): FormulaValue {
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return null;
}

function unary(op: "-" | "+" | "not", value: FormulaValue): FormulaValue {
  if (op === "not") return !truthy(value);
  const n = asNumber(value);
  if (n === null) return null;
  return op === "-" ? -n : n;
}

function binary(expr: Extract<Expr, { kind: "binary" }>, scope: BudgetedScope): FormulaValue {
  // and/or short-circuit like every mainstream language.
  if (expr.op === "and") return truthy(evaluate(expr.left, scope)) && truthy(evaluate(expr.right, scope));
  if (expr.op === "or") return truthy(evaluate(expr.left, scope)) || truthy(evaluate(expr.right, scope));
  return applyBinary(expr.op, evaluate(expr.left, scope), evaluate(expr.right, scope), scope.budget);
}

function applyBinary(op: BinaryOperator, a: FormulaValue, b: FormulaValue, budget: FormulaBudget): FormulaValue {
  return finite(rawBinary(op, a, b, budget));
}

function rawBinary(op: BinaryOperator, a: FormulaValue, b: FormulaValue, budget: FormulaBudget): FormulaValue {
  switch (op) {
    case "+":
      return plus(a, b, budget);
    case "==":
      return valuesEqual(a, b);
    case "!=":
      return !valuesEqual(a, b);
    case "<":
      return order(a, b, (o) => o < 0);
    case "<=":
      return order(a, b, (o) => o <= 0);
    case ">":
      return order(a, b, (o) => o > 0);
    case ">=":
      return order(a, b, (o) => o >= 0);
    case "xor":
      return truthy(a) !== truthy(b);
    default:
      return arithmetic(op, asNumber(a), asNumber(b));
  }
}

/**
 * Numeric addition when both sides are numbers (or numeric text); otherwise text concatenation,
 * whose length is checked against the budget before the text is built.
 */
function plus(a: FormulaValue, b: FormulaValue, budget: FormulaBudget): FormulaValue {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== null && y !== null) return x + y;
  if (a === null || b === null) return null;
  if (typeof a !== "string" && typeof b !== "string") return null;
  const left = String(a);
  const right = String(b);
  budget.text(left.length + right.length);
  return left + right;
}

function arithmetic(op: BinaryOperator, x: number | null, y: number | null): FormulaValue {
  if (x === null || y === null) return null;
  switch (op) {
    case "-":
      return x - y;
    case "*":
      return x * y;
    case "/":
      return y === 0 ? null : x / y;
    case "%":
      // Floored modulo (the sign of the divisor), as mathjs defines mod.
      return y === 0 ? null : x - y * Math.floor(x / y);
    case "^":
      return x ** y;
    default:
      return null;
  }
}

function order(a: FormulaValue, b: FormulaValue, test: (o: number) => boolean): FormulaValue {
  const o = compareValues(a, b);
  return o === undefined ? null : test(o);
}

function callFunction(name: FunctionName, args: FormulaValue[], scope: BudgetedScope): FormulaValue {
  const [first, second] = args;
  switch (name) {
    case "abs":
      return mapNumber(first, Math.abs);
    case "floor":
      return mapNumber(first, Math.floor);
    case "ceil":
      return mapNumber(first, Math.ceil);
    case "round":
      return round(first, args.length > 1 ? second : 0);
    case "min":
    case "max":
      return extreme(name, args);
    case "year":
      return datePart(first, (d) => Number(d.slice(0, 4)));
    case "month":
      return datePart(first, (d) => Number(d.slice(5, 7)));
    case "day":
      return datePart(first, (d) => Number(d.slice(8, 10)));
    case "today":
      return utcDay(scope.now);
    case "now":
      return scope.now.toISOString();
    case "uppercase":
      return typeof first === "string" ? changeCase(first, "upper", scope.budget) : null;
    case "lowercase":
      return typeof first === "string" ? changeCase(first, "lower", scope.budget) : null;
    case "number":
      return toNumberValue(first);
    case "string":
      if (typeof first === "string") scope.budget.text(first.length);
      return first === null ? null : String(first);
    case "boolean":
      return toBooleanValue(first);
  }
}

/** A case change may lengthen text (ß -> SS), at most threefold: the longer result is counted too. */
function changeCase(text: string, to: "upper" | "lower", budget: FormulaBudget): string {
  budget.text(text.length);
  const changed = to === "upper" ? text.toUpperCase() : text.toLowerCase();
  if (changed.length > text.length) budget.text(changed.length);
  return changed;
}

function mapNumber(value: FormulaValue, fn: (n: number) => number): FormulaValue {
  const n = asNumber(value);
  return n === null ? null : fn(n);
}

/** Half away from zero at `decimals` places (0-15); the epsilon nudge keeps 1.005 -> 1.01. */
function round(value: FormulaValue, decimals: FormulaValue): FormulaValue {
  const n = asNumber(value);
  const places = asNumber(decimals);
  if (n === null || places === null || !Number.isInteger(places) || places < 0 || places > 15) return null;
  const factor = 10 ** places;
  const rounded = Math.round(Math.abs(n) * factor * (1 + Number.EPSILON)) / factor;
  // No negative zero: round(-0.4) is 0.
  return rounded === 0 ? 0 : Math.sign(n) * rounded;
}

function extreme(name: "min" | "max", args: FormulaValue[]): FormulaValue {
  const numbers = args.map(asNumber);
  if (numbers.some((n) => n === null)) return null;
  return name === "min" ? Math.min(...(numbers as number[])) : Math.max(...(numbers as number[]));
}

/** Parts of the UTC calendar day of a date or instant string. */
function datePart(value: FormulaValue, pick: (day: string) => number): FormulaValue {
  if (typeof value !== "string") return null;
  const parsed = parseDateText(value);
  return parsed ? pick(parsed.day) : null;
}

function toNumberValue(value: FormulaValue): FormulaValue {
  if (typeof value === "boolean") return value ? 1 : 0;
  return asNumber(value);
}

function toBooleanValue(value: FormulaValue): FormulaValue {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") return parseBooleanText(value) ?? null;
  return null;
}

function asNumber(value: FormulaValue): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string") return parseNumberText(value) ?? null;
  return null;
}

/** null, false, 0 and '' are false; everything else is true. */
function truthy(value: FormulaValue): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") return value.length > 0;
  return false;
}

/** NaN and infinities never leave the interpreter. */
function finite(value: FormulaValue): FormulaValue {
  return typeof value === "number" && !Number.isFinite(value) ? null : value;
}
