/**
 * `validation.pattern` regular expressions run on RE2 (re2-wasm), an automaton engine whose
 * matching time is linear in the input: no pattern can backtrack catastrophically, so a tenant's
 * `(a+)+$` cannot stall the service. Features RE2 cannot provide without backtracking
 * (backreferences, lookaround) and oversized programs are refused at save time with
 * UNSAFE_PATTERN. RE2 needs unicode mode ('u'), which also makes the syntax stricter than
 * a plain JavaScript RegExp.
 *
 * re2-wasm compiles into one fixed 16 MiB WebAssembly heap for the whole process, which
 * JavaScript's collector does not see. So: a pattern's length and estimated compile cost are
 * bounded before RE2 sees it (pattern-cost.ts); compiled patterns are cached per tenant within a
 * bounded share (pattern-cache.ts) and freed when evicted; a compilation RE2 refuses is freed
 * too; and should the heap still run out, every cached pattern is freed and the call retried
 * once, so the engine recovers without a restart.
 */
import { RE2 } from "re2-wasm";
import { AppError } from "../errors.js";
import { estimatePatternCost } from "./pattern-cost.js";
import { PatternCache, type PatternCacheLimits } from "./pattern-cache.js";

export interface PatternLimits extends PatternCacheLimits {
  /** Characters of pattern source. */
  maxLength: number;
  /** Estimated peak bytes of compiling one pattern (pattern-cost.ts). */
  maxCompileBytes: number;
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
 */
export const DEFAULT_PATTERN_LIMITS: PatternLimits = {
  maxLength: MAX_PATTERN_LENGTH,
  maxCompileBytes: 1 * MIB,
  cacheBytes: 6 * MIB,
  cacheEntries: 500,
  tenantBytes: 2 * MIB,
  tenantEntries: 50,
};

/** Whose pattern runs (the tenant, for its share of the cache) and under which limits. */
export interface PatternUse {
  tenant: string;
  limits: PatternLimits;
}

const DEFAULT_USE: PatternUse = { tenant: "", limits: DEFAULT_PATTERN_LIMITS };

interface Deletable {
  delete(): void;
}

const compiled = new PatternCache<RE2>(release);

/**
 * Throws AppError('UNSAFE_PATTERN') naming the pattern when it cannot run safely. The check
 * compiles and frees at once: a save is not a use, so it takes no place in the cache.
 */
export function checkPattern(pattern: string, limits: PatternLimits = DEFAULT_PATTERN_LIMITS): void {
  release(build(pattern, limits));
}

/** Unanchored search, like RegExp.prototype.test: anchor with ^...$ to match the whole value. */
export function matchesPattern(pattern: string, value: string, use: PatternUse = DEFAULT_USE): boolean {
  return recovering(() => compilePattern(pattern, use).test(value));
}

/** The compiled pattern, through the tenant's share of the cache (exported for the benchmark). */
export function compilePattern(pattern: string, use: PatternUse = DEFAULT_USE): RE2 {
  const cached = compiled.get(use.tenant, pattern);
  if (cached) return cached;
  const regex = build(pattern, use.limits);
  compiled.add(use.tenant, pattern, regex, estimatePatternCost(pattern), use.limits);
  return regex;
}

/** Entries and estimated bytes of the compiled-pattern cache, for tests and metrics. */
export function patternCacheStats(): { entries: number; bytes: number; tenants: number } {
  return compiled.stats();
}

function build(pattern: string, limits: PatternLimits): RE2 {
  if (typeof pattern !== "string") throw unsafe(String(pattern), "must be a string");
  if (pattern.length > limits.maxLength) {
    throw unsafe(`${pattern.slice(0, 40)}...`, `is longer than ${limits.maxLength} characters`);
  }
  // RE2's \C matches one byte of UTF-8, which no browser engine has (re2-browser.ts): refused so
  // that a pattern checks the same on the server and in the offline client.
  if (ONE_BYTE_ESCAPE.test(pattern)) throw unsafe(pattern, "uses \\C (one byte of UTF-8), which only the server's engine has");
  const cost = estimatePatternCost(pattern);
  if (cost > limits.maxCompileBytes) {
    const why = `is too costly to compile (about ${kib(cost)} KiB; at most ${kib(limits.maxCompileBytes)} KiB): repeat Unicode classes with + or * and bound the length with minLength and maxLength`;
    throw unsafe(pattern, why, undefined, {
      estimatedBytes: String(cost),
      maxBytes: String(limits.maxCompileBytes),
    });
  }
  return recovering(() => compileFreeingFailures(pattern));
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
 * An exhausted heap aborts inside WebAssembly (a RuntimeError, "Cannot enlarge memory"). The
 * cache is what fills it, so it is emptied and the call tried once more; a second failure is
 * reported as the engine being unavailable, not as the tenant's pattern being wrong.
 */
function recovering<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!isOutOfMemory(error)) throw error;
    compiled.clear();
  }
  try {
    return run();
  } catch (error) {
    if (!isOutOfMemory(error)) throw error;
    throw new AppError("DEPENDENCY_UNAVAILABLE", "the pattern engine is out of memory; retry later", { cause: error });
  }
}

function isOutOfMemory(error: unknown): boolean {
  return error instanceof WebAssembly.RuntimeError && /Cannot enlarge memory|OOM/.test(error.message);
}

/** The native program is released explicitly: the collector never frees WebAssembly memory. */
function release(regex: RE2): void {
  (regex as unknown as { wrapper?: Partial<Deletable> }).wrapper?.delete?.();
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
