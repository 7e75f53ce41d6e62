/**
 * Order of evaluation of computed fields: a field is computed after the computed fields its
 * formula reads (a depth-first topological sort). A cycle has no order and is refused at save
 * time with FORMULA_CYCLE, naming the loop.
 */
import { AppError, isAppError } from "../errors.js";
import { isComputedDefinition, type FieldDefinition } from "./definition.js";
import { compileFormula } from "./formula.js";

export type GraphDefinition = Pick<FieldDefinition, "fieldKey" | "fieldType" | "defaultStrategy" | "computedFormula">;

/**
 * The field keys a definition's formula reads. An invalid formula reads nothing here: it is
 * reported on its own as INVALID_FORMULA, and the graph stays usable for the other fields.
 */
export function formulaDependencies(def: GraphDefinition): readonly string[] {
  if (!def.computedFormula) return [];
  try {
    return compileFormula(def.computedFormula).dependencies;
  } catch (error) {
    if (isAppError(error) && error.reason === "INVALID_FORMULA") return [];
    throw error;
  }
}

/** Computed definitions, dependencies first. Throws AppError('FORMULA_CYCLE') on a cycle. */
export function computedOrder<T extends GraphDefinition>(
  defs: readonly T[],
  dependenciesOf: (def: T) => readonly string[] = formulaDependencies,
): T[] {
  const walk = new Walk(defs, dependenciesOf);
  for (const def of walk.nodes.values()) {
    const cycle = walk.visit(def.fieldKey);
    if (cycle) throw cycleError(cycle);
  }
  return walk.order;
}

/** The first cycle reachable from `fromKey` (or from any computed field), as a closed key path. */
export function findComputedCycle<T extends GraphDefinition>(
  defs: readonly T[],
  fromKey?: string,
  dependenciesOf: (def: T) => readonly string[] = formulaDependencies,
): string[] | undefined {
  const walk = new Walk(defs, dependenciesOf);
  const starts = fromKey === undefined ? [...walk.nodes.keys()] : [fromKey];
  for (const key of starts) {
    const cycle = walk.visit(key);
    if (cycle) return cycle;
  }
  return undefined;
}

export function cycleMessage(cycle: readonly string[]): string {
  return `computed fields form a cycle: ${cycle.join(" -> ")}`;
}

export function cycleError(cycle: readonly string[]): AppError {
  return new AppError("FORMULA_CYCLE", cycleMessage(cycle), { metadata: { cycle: cycle.join(",") } });
}

/** Depth-first search with the usual white/grey/black marks; grey met again closes a cycle. */
class Walk<T extends GraphDefinition> {
  readonly nodes = new Map<string, T>();
  readonly order: T[] = [];
  private readonly state = new Map<string, "visiting" | "done">();
  private readonly stack: string[] = [];

  constructor(
    defs: readonly T[],
    private readonly dependenciesOf: (def: T) => readonly string[],
  ) {
    for (const def of defs) if (isComputedDefinition(def)) this.nodes.set(def.fieldKey, def);
  }

  /** Returns the cycle found, if any. */
  visit(key: string): string[] | undefined {
    const def = this.nodes.get(key);
    if (!def || this.state.get(key) === "done") return undefined;
    if (this.state.get(key) === "visiting") return [...this.stack.slice(this.stack.indexOf(key)), key];
    this.state.set(key, "visiting");
    this.stack.push(key);
    for (const dependency of this.dependenciesOf(def)) {
      const cycle = this.visit(dependency);
      if (cycle) return cycle;
    }
    this.stack.pop();
    this.state.set(key, "done");
    this.order.push(def);
    return undefined;
  }
}
