/**
 * Formulas of computed fields: checked once, compiled once per definition version, evaluated by
 * our own interpreter (formula-eval.ts) with the current time injected through the scope.
 */
import { checkFormula } from "./formula-check.js";
import type { Expr } from "./formula-ast.js";
import { evaluateExpr, type FormulaScope, type FormulaValue } from "./formula-eval.js";

export { checkFormula, MAX_FORMULA_LENGTH } from "./formula-check.js";
export type { FormulaScope, FormulaValue } from "./formula-eval.js";

export interface CompiledFormula {
  source: string;
  /** Bare names the formula reads: the custom field keys it depends on, in order of appearance. */
  dependencies: string[];
  /** Never throws; see formula-eval.ts for the null-on-error rule. */
  evaluate(scope: FormulaScope): FormulaValue;
}

/** Checks and compiles; throws AppError('INVALID_FORMULA') like checkFormula. */
export function compileFormula(source: string): CompiledFormula {
  const expr = checkFormula(source);
  const dependencies = bareNames(expr);
  return { source, dependencies, evaluate: (scope) => evaluateExpr(expr, scope) };
}

function bareNames(root: Expr): string[] {
  const names = new Set<string>();
  const visit = (expr: Expr): void => {
    switch (expr.kind) {
      case "field":
        names.add(expr.name);
        return;
      case "unary":
        return visit(expr.arg);
      case "binary":
        visit(expr.left);
        return visit(expr.right);
      case "conditional":
        visit(expr.test);
        visit(expr.then);
        return visit(expr.otherwise);
      case "call":
        return expr.args.forEach(visit);
      default:
        return;
    }
  };
  visit(root);
  return [...names];
}

/**
 * Compiled formulas keyed by `${definitionId}:${version}`: a definition's formula changes only
 * with its version, so each version is parsed once. Bounded, least recently used out first. The
 * source is kept beside the entry so a mismatching source under the same key is recompiled rather
 * than served stale.
 */
export class FormulaCache {
  private readonly entries = new Map<string, CompiledFormula>();
  hits = 0;
  misses = 0;

  constructor(readonly capacity = 1000) {}

  get(definitionId: string, version: number, source: string): CompiledFormula {
    const key = `${definitionId}:${version}`;
    const cached = this.entries.get(key);
    if (cached && cached.source === source) {
      this.hits++;
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    this.misses++;
    const compiled = compileFormula(source);
    this.entries.delete(key);
    this.entries.set(key, compiled);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return compiled;
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.hits = 0;
    this.misses = 0;
  }
}

/** The process-wide cache used by value resolution (exported for benchmarks and tests). */
export const formulaCache = new FormulaCache();

/** The compiled formula of a stored definition, through the cache. */
export function formulaOf(def: { id: string; version: number; computedFormula?: string }): CompiledFormula {
  return formulaCache.get(def.id, def.version, def.computedFormula ?? "");
}
