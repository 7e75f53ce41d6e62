/**
 * `validation.pattern` regular expressions run on RE2 (re2-wasm), an automaton engine whose
 * matching time is linear in the input: no pattern can backtrack catastrophically, so a tenant's
 * `(a+)+$` cannot stall the service. Features RE2 cannot provide without backtracking
 * (backreferences, lookaround) and oversized programs are refused at save time with
 * UNSAFE_PATTERN. RE2 needs unicode mode ('u'), which also makes the syntax stricter than
 * a plain JavaScript RegExp.
 *
 * Linear is not cheap: a match may step every byte of the value through every instruction of the
 * program, and `[[:^alpha:]]{1000}` (18 characters) compiles to some 30,000. So the program's size
 * is bounded at save (pattern-program.ts, PatternLimits.maxProgramSize), and a value is matched
 * only while bytes x instructions stays within maxMatchSteps: a longer one is reported as too
 * long to check, never matched.
 *
 * re2-wasm compiles into one fixed 16 MiB WebAssembly heap for the whole process, which
 * JavaScript's collector does not see. So: a pattern's length, estimated compile cost and program
 * size are bounded before RE2 sees it (pattern-cost.ts); a compilation starts only when its peak
 * fits in the heap (re2-heap.ts), since an aborted one is never freed; compiled patterns are
 * cached per tenant within a bounded share (pattern-cache.ts) and freed when evicted; a
 * compilation RE2 refuses is freed too; and should the heap still run out, entries are freed from
 * the tenant holding the most and the call retried once, so the engine recovers without a restart
 * and without flushing every tenant's patterns.
 */
import { RE2 } from "re2-wasm";
import { AppError } from "../errors.js";
import type { BudgetKind, PatternBudget, PatternBudgetLimits } from "./pattern-budget.js";
import { compiledHeldBound, compilePeakBound, compileSteps, estimatePatternCost, matchStepsBound, maxMatchedBytes } from "./pattern-cost.js";
import { PatternCache, type PatternCacheLimits } from "./pattern-cache.js";
import { programSizeBound } from "./pattern-program.js";
import { heapHasRoomFor } from "./re2-heap.js";

export interface PatternLimits extends PatternCacheLimits, PatternBudgetLimits {
  /** Characters of pattern source. */
  maxLength: number;
  /** Estimated peak bytes of compiling one pattern (pattern-cost.ts). */
  maxCompileBytes: number;
  /** Instructions of the compiled program, at most (pattern-program.ts): what each byte matched may cost. */
  maxProgramSize: number;
  /** Steps (bytes of the value x instructions) one match may take: a longer value is not matched. */
  maxMatchSteps: number;
}

export const MAX_PATTERN_LENGTH = 500;

const MIB = 1024 * 1024;

/** `\C` not itself escaped: preceded by an even number of backslashes. */
const ONE_BYTE_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\C/;

/**
 * About 11.2 MiB of the heap is free after start-up: one compilation (at most 1 MiB at its peak)
 * plus the cache (6 MiB of estimated peak cost keeps about 3.5 MiB of programs and their matching
 * caches: measured, a used program keeps up to 60 % of its compile peak) leave room for the heap's
 * fragmentation and RE2's matching caches. Compile time
 * follows the same cost (about 0.1 ms per KiB: `\p{L}{20}`, 4 MiB, took 360 ms of CPU), so the
 * bound on one compilation also bounds how long it holds the event loop.
 *
 * 4,000 instructions admit one Unicode class (`\p{L}` is about 3,700) or `[[:^alpha:]]{100}`,
 * refuse `\p{L}{2}` and `[[:^alpha:]]{1000}`. 75,000 steps are at most 46 ms of CPU
 * (pattern-cost.ts: 600 ns a step, the slowest measured 460): `^[A-Z]{2}-\d{4}$` (11
 * instructions) checks values up to about 6,800 bytes, `^[^<>]*$` (36) up to about 2,000, and
 * `^\p{L}+$` (3,700) only up to about 20: bound long text with maxLength instead.
 *
 * One request's matches together: 80,000 steps, 48 ms by the bound (one longest match, or some 35
 * short values). Its compilations together: 170,000 steps, which admits one Unicode class
 * (`\p{L}`, 138,000 steps: 83 ms by the bound, 45-53 ms measured on a loaded machine) and ten or
 * so ASCII patterns (2,500-9,000 each), and fits any entity type's patterns, since they must
 * compile within it at save. Compilation is priced loosely (170,000 steps are about 62 ms
 * measured), matching tightly; the bench's "costliest create under the pattern budget" measures
 * the sum.
 */
export const DEFAULT_PATTERN_LIMITS: PatternLimits = {
  maxLength: MAX_PATTERN_LENGTH,
  maxCompileBytes: 1 * MIB,
  maxProgramSize: 4_000,
  maxMatchSteps: 75_000,
  maxRequestMatchSteps: 80_000,
  maxRequestCompileSteps: 170_000,
  cacheBytes: 6 * MIB,
  cacheEntries: 500,
  tenantBytes: 2 * MIB,
  tenantEntries: 50,
};

/** Whose pattern runs (the tenant, for its share of the cache), under which limits and budget. */
export interface PatternUse {
  tenant: string;
  limits: PatternLimits;
  /** The request's budget; without one only the per-match bound applies (a save's single check). */
  budget?: PatternBudget;
}

const DEFAULT_USE: PatternUse = { tenant: "", limits: DEFAULT_PATTERN_LIMITS };

interface Deletable {
  delete(): void;
}

/** A compiled pattern and the bound of its program's size, which prices each match. */
interface Compiled {
  regex: RE2;
  instructions: number;
  /** Upper bound of the heap it keeps (the cache's cost). */
  held: number;
}

/** Matching the value would cost more than PatternLimits.maxMatchSteps: it is not matched. */
export interface ValueTooLong {
  /** The longest value, in bytes of UTF-8, this pattern is matched against. */
  maxBytes: number;
}

/** The request's budget (PatternUse.budget) has no room left for this check: it is not made. */
export interface OverBudget {
  overBudget: BudgetKind;
  budgetSteps: number;
}

const compiled = new PatternCache<Compiled>((entry) => release(entry.regex));

/**
 * Throws AppError('UNSAFE_PATTERN') naming the pattern when it cannot run safely. The check
 * compiles and frees at once: a save is not a use, so it takes no place in the cache.
 */
export function checkPattern(pattern: string, limits: PatternLimits = DEFAULT_PATTERN_LIMITS): void {
  release(recovering("", pattern, () => build(pattern, limits)).regex);
}

/**
 * Unanchored search, like RegExp.prototype.test: anchor with ^...$ to match the whole value. A
 * value whose match could cost more than the limits allow is not matched: ValueTooLong says how
 * long a value may be for this pattern.
 */
export function matchesPattern(pattern: string, value: string, use: PatternUse = DEFAULT_USE): boolean | ValueTooLong | OverBudget {
  return recovering(use.tenant, pattern, () => {
    const program = compiledFor(pattern, use);
    if (program === undefined) return overBudget(use, "compile");
    try {
      const instructions = program.entry.instructions;
      const maxBytes = maxMatchedBytes(instructions, use.limits.maxMatchSteps);
      const bytes = utf8Length(value);
      if (bytes > maxBytes) return { maxBytes };
      if (use.budget && !use.budget.trySpend("match", matchStepsBound(instructions, bytes))) return overBudget(use, "match");
      return program.entry.regex.test(value);
    } finally {
      if (!program.cached) release(program.entry.regex);
    }
  });
}

function overBudget(use: PatternUse, kind: BudgetKind): OverBudget {
  return { overBudget: kind, budgetSteps: use.budget?.max(kind) ?? 0 };
}

/**
 * Steps compiling `pattern` may take at most (PatternUse.budget's currency): what a request is
 * charged when the cache does not hold it. Throws like checkPattern when the pattern is refused.
 */
export function patternCompileSteps(pattern: string, limits: PatternLimits = DEFAULT_PATTERN_LIMITS): number {
  return compileSteps(planned(pattern, limits).cost);
}

/**
 * What the benchmark and tests do with a compiled pattern. Naming no engine keeps re2-wasm out of
 * this file's declarations, which the client package ships (browsers get re2js instead).
 */
export interface CompiledPattern {
  test(input: string): boolean;
}

/** The compiled pattern, through the tenant's share of the cache (for the benchmark and tests). */
export function compilePattern(pattern: string, use: PatternUse = DEFAULT_USE): CompiledPattern {
  const unbudgeted: PatternUse = { tenant: use.tenant, limits: use.limits };
  return recovering(use.tenant, pattern, () => compiledFor(pattern, unbudgeted)!.entry.regex);
}

/** Entries and bytes (upper bounds) of the compiled-pattern cache, for tests and metrics. */
export function patternCacheStats(tenant?: string): { entries: number; bytes: number; tenants: number } {
  if (tenant === undefined) return compiled.stats();
  const own = compiled.tenantStats(tenant);
  return { ...own, tenants: own.entries > 0 ? 1 : 0 };
}

/** Frees every compiled pattern (tests; a process letting go of the engine). */
export function releaseCompiledPatterns(): void {
  compiled.clear();
}

/**
 * `cached` is false when the cache could not keep it: the caller frees it after use. Undefined
 * when compiling does not fit in the request's budget.
 */
function compiledFor(pattern: string, use: PatternUse): { entry: Compiled; cached: boolean } | undefined {
  const hit = compiled.get(use.tenant, pattern);
  if (hit) return { entry: hit, cached: true };
  const plan = planned(pattern, use.limits);
  if (use.budget && !use.budget.trySpend("compile", compileSteps(plan.cost))) return undefined;
  const entry = compiledFrom(plan, use.limits);
  return { entry, cached: compiled.add(use.tenant, pattern, entry, entry.held, use.limits) };
}

function build(pattern: string, limits: PatternLimits): Compiled {
  return compiledFrom(planned(pattern, limits), limits);
}

/** A pattern found safe to compile: its program's size bound and its peak compile cost. */
interface Plan {
  pattern: string;
  instructions: number | undefined;
  cost: number;
}

function planned(pattern: string, limits: PatternLimits): Plan {
  if (typeof pattern !== "string") throw unsafe(String(pattern), "must be a string");
  if (pattern.length > limits.maxLength) {
    throw unsafe(`${pattern.slice(0, 40)}...`, `is longer than ${limits.maxLength} characters`);
  }
  // RE2's \C matches one byte of UTF-8, which no browser engine has (re2-browser.ts): refused so
  // that a pattern checks the same on the server and in the offline client.
  if (ONE_BYTE_ESCAPE.test(pattern)) throw unsafe(pattern, "uses \\C (one byte of UTF-8), which only the server's engine has");
  // The estimate from the text first: reading the program (re2js compiles it) is itself work.
  refuseCostly(pattern, estimatePatternCost(pattern), limits);
  const instructions = programSizeBound(pattern);
  const cost = compilePeakBound(estimatePatternCost(pattern), instructions ?? 0);
  refuseCostly(pattern, cost, limits);
  // Undefined where RE2 refuses the pattern: the compilation below reports why, within the cost bound.
  if (instructions !== undefined && instructions > limits.maxProgramSize) {
    const why = `compiles to too large a program (up to ${instructions} instructions; at most ${limits.maxProgramSize}), which every character matched may step through: repeat classes with + or * and bound the length with minLength and maxLength`;
    throw unsafe(pattern, why, undefined, { instructions: String(instructions), maxInstructions: String(limits.maxProgramSize) });
  }
  return { pattern, instructions, cost };
}

function compiledFrom({ pattern, instructions, cost }: Plan, limits: PatternLimits): Compiled {
  makeRoom(cost);
  const regex = compileFreeingFailures(pattern);
  // Should re2js ever refuse what re2-wasm accepts (re2-browser-parity.test.ts says they agree),
  // the match is priced as the largest program admitted.
  const priced = instructions ?? limits.maxProgramSize;
  return { regex, instructions: priced, held: compiledHeldBound(cost, priced) };
}

function refuseCostly(pattern: string, cost: number, limits: PatternLimits): void {
  if (cost <= limits.maxCompileBytes) return;
  const why = `is too costly to compile (about ${kib(cost)} KiB; at most ${kib(limits.maxCompileBytes)} KiB): repeat Unicode classes with + or * and bound the length with minLength and maxLength`;
  throw unsafe(pattern, why, undefined, { estimatedBytes: String(cost), maxBytes: String(limits.maxCompileBytes) });
}

/**
 * Frees cached patterns, from the tenant holding the most, until a compilation's peak fits. With
 * nothing left to free, the compilation is not started: aborted, it would leak what it had.
 */
function makeRoom(bytes: number): void {
  while (!heapHasRoomFor(bytes)) {
    if (!compiled.shed()) throw outOfMemory();
  }
}

function outOfMemory(cause?: unknown): AppError {
  return new AppError("DEPENDENCY_UNAVAILABLE", "the pattern engine is out of memory; retry later", cause === undefined ? {} : { cause });
}

/**
 * re2-wasm's constructor creates the native program and only then checks it, throwing without
 * freeing it: every refused pattern used to leak. The subclass's prototype setter sees the
 * program as the constructor stores it, so a refused one is freed here.
 */
let lastProgram: Deletable | undefined;

class FreeingRE2 extends RE2 {}

Object.defineProperty(FreeingRE2.prototype, "wrapper", {
  configurable: true,
  set(this: object, program: Deletable) {
    lastProgram = program;
    Object.defineProperty(this, "wrapper", { value: program, writable: true, configurable: true });
  },
});

function compileFreeingFailures(pattern: string): RE2 {
  lastProgram = undefined;
  try {
    return new FreeingRE2(pattern, "u");
  } catch (error) {
    // Set by the setter above during the constructor, which control-flow analysis cannot see.
    (lastProgram as Deletable | undefined)?.delete();
    if (isOutOfMemory(error)) throw error;
    const detail = error instanceof Error ? error.message.replace(/^Invalid regular expression: /, "") : "";
    throw unsafe(pattern, `cannot run on the linear-time engine (${detail})`, error);
  } finally {
    lastProgram = undefined;
  }
}

/**
 * An exhausted heap aborts inside WebAssembly (a RuntimeError, "Cannot enlarge memory"): the
 * pattern being matched is dropped (its DFA caches are what grew), entries are freed from the
 * tenant holding the most until a compilation fits again, and the call is tried once more. A
 * second failure is reported as the engine being unavailable, not as the tenant's pattern being
 * wrong.
 */
function recovering<T>(tenant: string, pattern: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!isOutOfMemory(error)) throw error;
    compiled.drop(tenant, pattern);
    makeRoom(DEFAULT_PATTERN_LIMITS.maxCompileBytes);
  }
  try {
    return run();
  } catch (error) {
    if (!isOutOfMemory(error)) throw error;
    throw outOfMemory(error);
  }
}

function isOutOfMemory(error: unknown): boolean {
  return error instanceof WebAssembly.RuntimeError && /Cannot enlarge memory|OOM/.test(error.message);
}

/** The native program is released explicitly: the collector never frees WebAssembly memory. */
function release(regex: RE2): void {
  (regex as unknown as { wrapper?: Partial<Deletable> }).wrapper?.delete?.();
}

/** Bytes of `value` in UTF-8, as re2-wasm receives it (a lone surrogate becomes U+FFFD, 3 bytes). */
function utf8Length(value: string): number {
  let bytes = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function kib(bytes: number): number {
  return Math.ceil(bytes / 1024);
}

function unsafe(pattern: string, why: string, cause?: unknown, metadata?: Record<string, string>): AppError {
  return new AppError("UNSAFE_PATTERN", `pattern "${pattern}" ${why}`, {
    ...(cause === undefined ? {} : { cause }),
    ...(metadata === undefined ? {} : { metadata }),
  });
}
