/**
 * An upper bound of the size of the program RE2 compiles from a `validation.pattern`, in
 * instructions. RE2 matches in time linear in the input, but the factor is the program: each byte
 * of input may step through every instruction (a DFA state it has not seen yet, or the NFA it
 * falls back to), so a match costs up to input bytes x program size.
 *
 * RE2 copies a repeated atom `max` times and compiles every character class into UTF-8 byte
 * ranges: `[[:^alpha:]]{1000}` (18 characters) is some 30,000 instructions, `\p{L}` alone
 * about 3,700. The bound is read from the program re2js compiles from the same text
 * (re2-browser.ts rewrites it as re2-wasm does): re2js keeps each class as rune ranges, with
 * `(?i)`, POSIX, negated and Unicode classes already expanded, so each class is counted here as
 * the UTF-8 byte sequences its ranges split into (what RE2 emits before sharing common suffixes),
 * plus one instruction to join each further sequence. Every other instruction counts one.
 */
import { compileAsRe2Wasm } from "./re2-browser.js";

/** re2js's instruction codes (Inst in re2js): the four that match a character. */
const RUNE = 8;
const RUNE1 = 9;
const RUNE_ANY = 10;
const RUNE_ANY_NOT_NL = 11;
const FOLD_CASE = 1;

/** A folded literal matches its case orbit: at most four characters (k, K and the Kelvin sign). */
const FOLDED_LITERAL = 4 * (4 + 1);

/** The largest code point encoded in 1, 2, 3 and 4 bytes of UTF-8. */
const UTF8_TOPS = [0x7f, 0x7ff, 0xffff, 0x10ffff];

interface ProgramInst {
  op: number;
  arg: number;
  runes: ArrayLike<number>;
}

/**
 * Instructions RE2 compiles from `pattern`, at most; undefined when RE2 refuses the pattern
 * (re2-wasm then reports why).
 */
export function programSizeBound(pattern: string): number | undefined {
  if (bounds.has(pattern)) return bounds.get(pattern);
  const bound = computedBound(pattern);
  if (bounds.size >= BOUNDS_REMEMBERED) bounds.delete(bounds.keys().next().value!);
  bounds.set(pattern, bound);
  return bound;
}

/**
 * Bounds already read, by pattern text (a save reads every sibling's patterns, and each cache
 * miss reads its pattern's): at most 2,000 of at most 500 characters each.
 */
const BOUNDS_REMEMBERED = 2_000;
const bounds = new Map<string, number | undefined>();

function computedBound(pattern: string): number | undefined {
  let insts: readonly ProgramInst[];
  try {
    insts = (compileAsRe2Wasm(pattern) as unknown as { re2Input: { prog: { inst: ProgramInst[] } } }).re2Input.prog.inst;
  } catch {
    return undefined;
  }
  let total = 0;
  for (const inst of insts) total += instructionsFor(inst);
  return total;
}

function instructionsFor(inst: ProgramInst): number {
  if (inst.op === RUNE_ANY) return rangeInstructions([0, 0x10ffff]);
  if (inst.op === RUNE_ANY_NOT_NL) return rangeInstructions([0, 9, 11, 0x10ffff]);
  if (inst.op !== RUNE && inst.op !== RUNE1) return 1;
  const runes = inst.runes;
  if (runes.length === 1) return (inst.arg & FOLD_CASE) !== 0 ? FOLDED_LITERAL : rangeInstructions([runes[0]!, runes[0]!]);
  return rangeInstructions(runes);
}

/** `ranges` is lo, hi pairs of code points; one sequence needs no join. */
function rangeInstructions(ranges: ArrayLike<number>): number {
  let total = -1;
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    let lo = ranges[i]!;
    const hi = ranges[i + 1]!;
    for (let bytes = 1; bytes <= 4 && lo <= hi; bytes++) {
      const top = UTF8_TOPS[bytes - 1]!;
      if (lo > top) continue;
      total += sequenceInstructions(lo, Math.min(hi, top), bytes);
      lo = top + 1;
    }
  }
  return Math.max(1, total);
}

/**
 * A range of code points of one encoded length splits into byte sequences, each a range per byte
 * (the UTF-8 range split RE2's compiler performs); each sequence costs its bytes plus one join.
 */
function sequenceInstructions(lo: number, hi: number, bytes: number): number {
  for (let i = 1; i < bytes; i++) {
    const low = (1 << (6 * i)) - 1;
    if ((lo & ~low) === (hi & ~low)) continue;
    if ((lo & low) !== 0) return sequenceInstructions(lo, lo | low, bytes) + sequenceInstructions((lo | low) + 1, hi, bytes);
    if ((hi & low) !== low) return sequenceInstructions(lo, (hi & ~low) - 1, bytes) + sequenceInstructions(hi & ~low, hi, bytes);
  }
  return bytes + 1;
}
