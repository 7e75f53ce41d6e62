/**
 * What the pattern checks of one request may spend. Each match is bounded on its own
 * (PatternLimits.maxMatchSteps), but a create checks every pattern field of its entity type, and
 * each may compile a pattern the cache does not hold: 200 fields of long values, or of distinct
 * patterns on a cold cache, would hold the event loop for seconds. So the matches of one request
 * draw on one budget and its compilations on another, both in the steps of pattern-cost.ts (an
 * upper bound of CPU, not a measurement); a check that does not fit is not made, and its field is
 * reported as not checked. The two are apart because the caller controls one and the tenant's
 * administrator the other: an entity type's patterns must compile within one request's compile
 * budget at save (definition-rules.ts), so on a cold cache a create still compiles them all, and
 * only the caller's values can run out the match budget.
 */
export interface PatternBudgetLimits {
  /** Steps of all matches of one request. */
  maxRequestMatchSteps: number;
  /** Steps of all compilations of one request, at compileSteps of their peak (pattern-cost.ts). */
  maxRequestCompileSteps: number;
}

export type BudgetKind = "match" | "compile";

export class PatternBudget {
  private readonly spent: Record<BudgetKind, number> = { match: 0, compile: 0 };

  constructor(readonly limits: PatternBudgetLimits) {}

  /** Spends `steps` of `kind` when they fit in what is left; false, spending nothing, when they do not. */
  trySpend(kind: BudgetKind, steps: number): boolean {
    if (this.spent[kind] + steps > this.max(kind)) return false;
    this.spent[kind] += steps;
    return true;
  }

  max(kind: BudgetKind): number {
    return kind === "match" ? this.limits.maxRequestMatchSteps : this.limits.maxRequestCompileSteps;
  }
}
