/**
 * 6. resolveForCreate of an entity with 20 definitions, in process, with the process-wide formula
 * cache (as the API runs it) against the same with the cache cleared before every call, so each
 * of the 3 formulas is parsed and checked once per entity (what it costs without the cache).
 */
import { formulaCache } from "../src/domain/customfields/formula.js";
import { resolveForCreate } from "../src/domain/customfields/values.js";
import type { BenchGroup } from "./context.js";
import { baseline, figure } from "./figure.js";
import { resolveContext, resolveDefinitions, resolveUserValues } from "./field-definitions.js";
import { median } from "./stats.js";
import { progress } from "./support.js";

const NOW = new Date("2026-01-15T12:00:00Z");
const WARM_UP_CALLS = 2000;
const ROUNDS = 3;

function resolveOnce(): Record<string, unknown> {
  return resolveForCreate(resolveDefinitions, resolveUserValues, resolveContext, NOW);
}

function resolveParsingFormulas(): Record<string, unknown> {
  formulaCache.clear();
  return resolveOnce();
}

/** Calls per second of `work` over about `seconds`. */
function rate(seconds: number, work: () => unknown): number {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let calls = 0;
  while (performance.now() < deadline) {
    for (let i = 0; i < 100; i++) work();
    calls += 100;
  }
  return calls / ((performance.now() - started) / 1000);
}

export const customFields: BenchGroup = {
  name: "fields",
  kind: "in-process",
  async run(options) {
    // The run means nothing if a formula silently computed null.
    const resolved = resolveOnce();
    if ([resolved.effective_limit, resolved.segment_label, resolved.priority].some((value) => value === null || value === undefined)) {
      throw new Error(`a computed field is empty: ${JSON.stringify(resolved)}`);
    }
    for (let i = 0; i < WARM_UP_CALLS; i++) resolveOnce(), resolveParsingFormulas();
    progress(`resolveForCreate: ${ROUNDS} alternating rounds of ${options.resolveSeconds} s each way`);
    const cached: number[] = [];
    const parsed: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      formulaCache.clear();
      cached.push(rate(options.resolveSeconds, resolveOnce));
      parsed.push(rate(options.resolveSeconds, resolveParsingFormulas));
    }
    formulaCache.clear();
    return [
      figure(
        "resolveForCreate, 20 fields (5 rule-based, 3 computed)",
        median(cached),
        "entities/s",
        baseline("formulas parsed every call", median(parsed), "entities/s"),
        `one core, median of ${ROUNDS} rounds`,
      ),
    ];
  },
};
