/**
 * `validation.pattern` regular expressions run on RE2 (re2-wasm), an automaton engine whose
 * matching time is linear in the input: no pattern can backtrack catastrophically, so a tenant's
 * `(a+)+$` cannot stall the service. Features RE2 cannot provide without backtracking
 * (backreferences, lookaround) and oversized programs are refused at save time with
 * UNSAFE_PATTERN. RE2 needs unicode mode ('u'), which also makes the syntax stricter than
 * a plain JavaScript RegExp.
 */
import { RE2 } from "re2-wasm";
import { AppError } from "../errors.js";

export const MAX_PATTERN_LENGTH = 500;
const CACHE_CAPACITY = 500;

const compiled = new Map<string, RE2>();

/** Throws AppError('UNSAFE_PATTERN') naming the pattern when it cannot run safely. */
export function checkPattern(pattern: string): void {
  compilePattern(pattern);
}

/** Unanchored search, like RegExp.prototype.test: anchor with ^...$ to match the whole value. */
export function matchesPattern(pattern: string, value: string): boolean {
  return compilePattern(pattern).test(value);
}

function compilePattern(pattern: string): RE2 {
  const cached = compiled.get(pattern);
  if (cached) return cached;
  const regex = build(pattern);
  compiled.set(pattern, regex);
  if (compiled.size > CACHE_CAPACITY) evictOldest();
  return regex;
}

function build(pattern: string): RE2 {
  if (typeof pattern !== "string") throw unsafe(String(pattern), "must be a string");
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw unsafe(`${pattern.slice(0, 40)}...`, `is longer than ${MAX_PATTERN_LENGTH} characters`);
  }
  try {
    return new RE2(pattern, "u");
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^Invalid regular expression: /, "") : "";
    throw unsafe(pattern, `cannot run on the linear-time engine (${detail})`, error);
  }
}

/**
 * re2-wasm keeps each compiled program in WebAssembly memory, which JavaScript's collector does
 * not see; the evicted program is released explicitly.
 */
function evictOldest(): void {
  const oldest = compiled.keys().next().value;
  if (oldest === undefined) return;
  const regex = compiled.get(oldest);
  compiled.delete(oldest);
  const wrapper = (regex as unknown as { wrapper?: { delete?: () => void } } | undefined)?.wrapper;
  wrapper?.delete?.();
}

function unsafe(pattern: string, why: string, cause?: unknown): AppError {
  return new AppError("UNSAFE_PATTERN", `pattern "${pattern}" ${why}`, cause === undefined ? {} : { cause });
}
