/**
 * The compiled cost of a `validation.pattern`, estimated from its text before RE2 sees it.
 *
 * re2-wasm runs in one fixed 16 MiB WebAssembly heap shared by every tenant, and RE2 bounds only
 * the program it keeps, not what parsing and compiling allocate on the way: `(\p{L}{20}){5}`
 * exhausts the heap in one compilation, and the aborted compilation is never freed. So the cost
 * is refused before compiling. The estimate is in bytes of peak heap during compilation, measured
 * on re2-wasm 1.0.2 and rounded up: what a pattern costs is what its atoms cost, each times the
 * repetitions around it (RE2 copies a repeated atom into the program `max` times), and a Unicode
 * property class (`\p{L}`) is by far the most expensive atom (each copy is its UTF-8 automaton).
 */

/** Bytes every pattern costs (the RE2 object, its parse tree root, the first program block). */
const BASE_COST = 8 * 1024;
/** One literal character or an ASCII-only escape. */
const LITERAL_COST = 100;
/** \d, \w, \s and bracket classes of ASCII ranges: a handful of byte ranges each. */
const SMALL_CLASS_COST = 600;
const CLASS_ITEM_COST = 100;
/** `.`, negated classes and \D \W \S: every byte length of UTF-8, a few kilobytes of program. */
const NEGATED_CLASS_COST = 2 * 1024;
/** One copy of a Unicode property class in the program (\p{L} measured 150 KB). */
const PROPERTY_COPY_COST = 180 * 1024;
/** Parsing a property class, however often it is repeated: the first (its tables), then each other. */
const FIRST_PROPERTY_PARSE_COST = 350 * 1024;
const PROPERTY_PARSE_COST = 200 * 1024;

/** Cost of a piece of pattern: `once` is paid once, `perCopy` times the repetitions around it. */
interface Cost {
  once: number;
  perCopy: number;
}

const NONE: Cost = { once: 0, perCopy: 0 };

/** Estimated peak bytes of compiling `pattern` (never less than what re2-wasm really used). */
export function estimatePatternCost(pattern: string): number {
  const reader = new Reader(pattern);
  let cost = reader.alternation();
  // A stray ")" is a syntax error RE2 reports; what follows it is still counted.
  while (reader.skipStrayClose()) cost = add(cost, reader.alternation());
  return BASE_COST + cost.once + cost.perCopy;
}

class Reader {
  private i = 0;
  private properties = 0;

  constructor(private readonly text: string) {}

  skipStrayClose(): boolean {
    if (this.text[this.i] !== ")") return false;
    this.i++;
    return true;
  }

  /** Alternatives up to the end or the closing parenthesis of the current group. */
  alternation(): Cost {
    let total = NONE;
    while (this.i < this.text.length && this.text[this.i] !== ")") {
      const ch = this.text[this.i];
      if (ch === "|" || ch === "^" || ch === "$") {
        this.i++;
        continue;
      }
      const atom = this.atom();
      total = add(total, times(atom, this.repetitions()));
    }
    return total;
  }

  private atom(): Cost {
    const ch = this.text[this.i++];
    if (ch === "(") return this.group();
    if (ch === "[") return this.bracket();
    if (ch === "\\") return this.escape();
    if (ch === ".") return { once: 0, perCopy: NEGATED_CLASS_COST };
    return { once: 0, perCopy: LITERAL_COST };
  }

  private group(): Cost {
    if (this.text[this.i] === "?") this.skipGroupPrefix();
    const inner = this.alternation();
    if (this.text[this.i] === ")") this.i++;
    return inner;
  }

  /** `(?:`, `(?i:`, `(?i)`, `(?P<name>`, `(?<name>`: only the body costs. */
  private skipGroupPrefix(): void {
    this.i++;
    if (this.text[this.i] === "P") this.i++;
    if (this.text[this.i] === "<") {
      const close = this.text.indexOf(">", this.i);
      this.i = close < 0 ? this.text.length : close + 1;
      return;
    }
    while (this.i < this.text.length && /[a-zA-Z-]/.test(this.text[this.i])) this.i++;
    if (this.text[this.i] === ":") this.i++;
  }

  private escape(): Cost {
    const ch = this.text[this.i++] ?? "";
    if (ch === "p" || ch === "P") {
      this.skipBraced();
      const once = this.properties++ === 0 ? FIRST_PROPERTY_PARSE_COST : PROPERTY_PARSE_COST;
      return { once, perCopy: PROPERTY_COPY_COST };
    }
    if (ch === "d" || ch === "w" || ch === "s") return { once: 0, perCopy: SMALL_CLASS_COST };
    if (ch === "D" || ch === "W" || ch === "S") return { once: 0, perCopy: NEGATED_CLASS_COST };
    if (ch === "x" || ch === "u") this.skipBraced();
    return { once: 0, perCopy: LITERAL_COST };
  }

  /** `{...}` after \p, \x or \u; a one-letter property (`\pL`) is one character. */
  private skipBraced(): void {
    if (this.text[this.i] !== "{") {
      this.i++;
      return;
    }
    const close = this.text.indexOf("}", this.i);
    this.i = close < 0 ? this.text.length : close + 1;
  }

  /** A bracket class: its property items cost like \p, a negated class like `.`. */
  private bracket(): Cost {
    let negated = false;
    if (this.text[this.i] === "^") {
      negated = true;
      this.i++;
    }
    let cost: Cost = { once: 0, perCopy: negated ? NEGATED_CLASS_COST : SMALL_CLASS_COST };
    let first = true;
    while (this.i < this.text.length && (first || this.text[this.i] !== "]")) {
      first = false;
      const ch = this.text[this.i++];
      if (ch === "[" && this.text[this.i] === ":") {
        // A negated POSIX class (`[:^alpha:]`) is every other character: as large as `.`.
        cost = add(cost, { once: 0, perCopy: this.text[this.i + 1] === "^" ? NEGATED_CLASS_COST : SMALL_CLASS_COST });
        const close = this.text.indexOf(":]", this.i);
        this.i = close < 0 ? this.text.length : close + 2;
      } else if (ch === "\\") {
        cost = add(cost, this.escape());
      } else {
        cost = add(cost, { once: 0, perCopy: CLASS_ITEM_COST });
      }
    }
    this.i++;
    return cost;
  }

  /** How many copies of the preceding atom RE2 compiles: `{n,m}` is m, `{n,}` n + 1, `*+?` one. */
  private repetitions(): number {
    let copies = 1;
    for (;;) {
      const ch = this.text[this.i];
      if (ch === "*" || ch === "+" || ch === "?") {
        this.i++;
        continue;
      }
      const counted = /^\{(\d+)(,(\d*))?\}/.exec(this.text.slice(this.i, this.i + 24));
      if (!counted) return copies;
      this.i += counted[0].length;
      const min = Number(counted[1]);
      const max = counted[2] === undefined ? min : counted[3] === "" ? min + 1 : Number(counted[3]);
      copies *= Math.max(1, min, max);
    }
  }
}

function add(a: Cost, b: Cost): Cost {
  return { once: a.once + b.once, perCopy: a.perCopy + b.perCopy };
}

function times(cost: Cost, copies: number): Cost {
  return { once: cost.once, perCopy: cost.perCopy * copies };
}

/*
 * What a compiled pattern costs once it matches, from the bound of its program's size
 * (pattern-program.ts). Measured on re2-wasm 1.0.2 and checked as upper bounds against measured
 * heap and CPU on a corpus (test/unit/customfields/pattern-match-cost.test.ts).
 */

/** re2-wasm's RE2 is built with the default max_mem: its DFAs together keep at most this. */
const RE2_MAX_MEM = 8 * 1024 * 1024;
/** DFAs a test() may fill: forward leftmost-first, forward longest (anchored both ends), reverse. */
const DFAS = 3;
/** Start states a DFA caches besides the one new state each byte of input may create. */
const START_STATES = 10;
/**
 * Held per instruction once matched: the forward and the reverse program (8 bytes an
 * instruction each, twice while flattening), and each DFA's two work queues and stack.
 */
const HELD_PER_INSTRUCTION = 16 * 2 + DFAS * 20;

/**
 * CPU of one step (one byte of input through one instruction) and the fixed cost of a call, in
 * steps. Every byte may create a DFA state, and building one walks every instruction active in
 * it: measured up to 460 ns a step where every instruction is active (`a{500}!` on 400 `a`s, a
 * loaded two-core machine) and about 15-40 ns for repeated classes, whose active instructions
 * are a fraction of the program. Rounded up from the worst.
 */
export const NANOSECONDS_PER_STEP = 600;
const CALL_STEPS = 2_000;

/**
 * CPU of compiling, per byte of its peak (about 0.1 ms a KiB measured, `\p{L}{20}` 360 ms). The
 * first match that finds something pays one more compilation: RE2 builds the reverse program it
 * locates the start with lazily, within the same bound.
 */
export const NANOSECONDS_PER_COMPILE_BYTE = 150;

/** Peak bytes of compiling a program of `instructions` (its array doubles as it grows), at least. */
const PEAK_PER_INSTRUCTION = 48;

/** The compile estimate, raised to what the program's size alone may take at its peak. */
export function compilePeakBound(estimate: number, instructions: number): number {
  return Math.max(estimate, BASE_COST + PEAK_PER_INSTRUCTION * instructions);
}

/** Compiling a pattern whose peak is `compileBytes`, in steps of matching (what a budget counts). */
export function compileSteps(compileBytes: number): number {
  return Math.ceil((compileBytes * NANOSECONDS_PER_COMPILE_BYTE) / NANOSECONDS_PER_STEP);
}

/** The longest value, in bytes of UTF-8, a match may run on within `maxSteps`. */
export function maxMatchedBytes(instructions: number, maxSteps: number): number {
  return Math.max(0, Math.floor((maxSteps - CALL_STEPS) / Math.max(1, instructions)) - 1);
}

/** Upper bound of the steps matching `valueBytes` bytes of UTF-8 may take. */
export function matchStepsBound(instructions: number, valueBytes: number): number {
  return instructions * (valueBytes + 1) + CALL_STEPS;
}

/** Bytes one DFA state may hold: header, a transition per byte class, its instruction list. */
function stateBytes(instructions: number): number {
  return 64 + 4 * Math.min(257, 2 * instructions + 12) + 8 * instructions;
}

/** Upper bound of the DFA memory matching `valueBytes` bytes may add: a new state a byte at most. */
export function matchGrowthBound(instructions: number, valueBytes: number): number {
  return Math.min(RE2_MAX_MEM, DFAS * (valueBytes + START_STATES) * stateBytes(instructions));
}

/** Upper bound of the heap a compiled pattern keeps before its DFAs grow (compiled, both programs). */
export function compiledHeldBound(compileBytes: number, instructions: number): number {
  return compileBytes + HELD_PER_INSTRUCTION * instructions;
}
