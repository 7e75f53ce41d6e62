import { finding, passed, type CheckResult } from "./check-result.js";
import type { Disposition } from "./content-policy.js";

const NAME = "csv_formula_cells";

/** Where a field stands: still in leading filler, possibly a signed number, a formula, or plain. */
const Cell = { Leading: 0, SignedNumber: 1, Formula: 2, Plain: 3 } as const;
type Cell = (typeof Cell)[keyof typeof Cell];

/**
 * Spreadsheets skip these before deciding a cell is a formula, and a quote inside a quoted field
 * (`"""=1+1"`) is one way to smuggle the formula past naive checks.
 */
const FILLER = new Set([0x20 /* space */, 0x09 /* tab */, 0x0d /* CR */, 0x0a /* LF */, 0x22 /* " */]);
const EQUALS = 0x3d;
const AT = 0x40;
const PLUS = 0x2b;
const MINUS = 0x2d;

/**
 * Counts CSV cells that a spreadsheet would evaluate as a formula (CSV injection, e.g.
 * `=cmd|' /C calc'!A0`): a first meaningful character `=`, `@`, `+` or `-`. A signed number
 * (`-12.50`, `+44 20 7946 0958`) is data and is not counted; `-2+3+cmd|...` is. Fed one character
 * of field content at a time by the CSV parser, in constant memory.
 */
export class FormulaCellCounter {
  private cell: Cell = Cell.Leading;
  private count = 0;
  private firstLine = 0;

  /** A new field begins (after a delimiter or a line break). */
  startField(): void {
    this.cell = Cell.Leading;
  }

  /** One character of the current field's content, quotes included. */
  push(char: number, line: number): void {
    if (this.cell === Cell.Leading) {
      if (FILLER.has(char)) return;
      if (char === EQUALS || char === AT) this.found(line);
      else this.cell = char === PLUS || char === MINUS ? Cell.SignedNumber : Cell.Plain;
    } else if (this.cell === Cell.SignedNumber && !isNumberPart(char)) {
      this.found(line);
    }
  }

  result(disposition: Disposition): CheckResult {
    if (this.count === 0) return passed(NAME);
    const message = `${this.count} cell(s) start like a spreadsheet formula (=, +, -, @), the first on line ${this.firstLine}`;
    return finding(NAME, "CSV_FORMULA_CELLS", message, disposition);
  }

  private found(line: number): void {
    this.cell = Cell.Formula;
    if (this.count++ === 0) this.firstLine = line;
  }
}

/** Digits, decimal and grouping separators and spaces: what follows the sign of a number. */
function isNumberPart(char: number): boolean {
  return (char >= 0x30 && char <= 0x39) || char === 0x2e || char === 0x2c || char === 0x20;
}
