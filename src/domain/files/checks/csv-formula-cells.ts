import { finding, passed, type CheckResult } from "./check-result.js";
import type { Disposition } from "./content-policy.js";

const NAME = "csv_formula_cells";

/** The delimiters a spreadsheet may choose for a CSV (by locale or by sniffing), RFC 4180's first. */
export const SPREADSHEET_DELIMITERS: readonly number[] = [0x2c /* , */, 0x3b /* ; */, 0x09 /* tab */, 0x7c /* | */];

/** Where a field stands: still in leading filler, possibly a signed number, a formula, or plain. */
const Cell = { Leading: 0, SignedNumber: 1, Formula: 2, Plain: 3 } as const;
type Cell = (typeof Cell)[keyof typeof Cell];

/** Where a reading stands in the CSV syntax: quotes open only at a field's start. */
const Syntax = { FieldStart: 0, Unquoted: 1, Quoted: 2, QuoteInQuoted: 3 } as const;
type Syntax = (typeof Syntax)[keyof typeof Syntax];

/**
 * Spreadsheets skip these before deciding a cell is a formula, and a quote inside a quoted field
 * (`"""=1+1"`) is one way to smuggle the formula past naive checks.
 */
const FILLER = new Set([0x20 /* space */, 0x09 /* tab */, 0x0d /* CR */, 0x0a /* LF */, 0x22 /* " */]);
const EQUALS = 0x3d;
const AT = 0x40;
const PLUS = 0x2b;
const MINUS = 0x2d;
const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/**
 * Counts CSV cells that a spreadsheet would evaluate as a formula (CSV injection, e.g.
 * `=cmd|' /C calc'!A0`): a first meaningful character `=`, `@`, `+` or `-`, in every field under
 * every delimiter of SPREADSHEET_DELIMITERS. A file is opened with whatever delimiter the
 * reader's locale or sniffer picks, not the one it was written with: `2026-01-01;x,=cmd|...` is
 * harmless split on `;` and a formula split on `,`. So four readings run side by side, each
 * honouring quotes as a spreadsheet does under its delimiter (tolerantly: text after a closing
 * quote joins the field).
 *
 * A signed number (`-12.50`, `+44 20 7946 0958`) is data and is not counted; `-2+3+cmd|...` is.
 * What another delimiter would split into several signed numbers (`-12.50,-3` read on `;`) is
 * still numbers (see signedNumber). Fed one character at a time, in constant memory.
 */
export class FormulaCells {
  private readonly readings = SPREADSHEET_DELIMITERS.map((delimiter) => new DelimiterReading(delimiter));

  push(char: number): void {
    for (const reading of this.readings) reading.push(char);
  }

  /**
   * The reading with the most formula cells (the file's own delimiter on a tie) gives the count
   * and the first line; another delimiter is named.
   */
  result(disposition: Disposition, fileDelimiter: number = SPREADSHEET_DELIMITERS[0]): CheckResult {
    const own = this.readings.find((reading) => reading.delimiter === fileDelimiter) ?? this.readings[0];
    const worst = this.readings.reduce((most, reading) => (reading.count > most.count ? reading : most), own);
    if (worst.count === 0) return passed(NAME);
    const split = worst === own ? "" : ` when split on ${JSON.stringify(String.fromCharCode(worst.delimiter))}`;
    const message = `${worst.count} cell(s) start like a spreadsheet formula (=, +, -, @)${split}, the first on line ${worst.firstLine}`;
    return finding(NAME, "CSV_FORMULA_CELLS", message, disposition);
  }
}

/** The file as split on one delimiter, with its own quoting state and count. */
class DelimiterReading {
  count = 0;
  firstLine = 0;
  private syntax: Syntax = Syntax.FieldStart;
  private cell: Cell = Cell.Leading;
  /** In a signed number, just after a delimiter of another reading (where a new number may be signed). */
  private afterSeparator = false;
  private line = 1;
  private fieldLine = 1;

  constructor(readonly delimiter: number) {}

  push(char: number): void {
    switch (this.syntax) {
      case Syntax.Quoted:
        if (char === QUOTE) this.syntax = Syntax.QuoteInQuoted;
        else this.content(char);
        break;
      case Syntax.QuoteInQuoted:
        if (char === QUOTE) {
          this.syntax = Syntax.Quoted; // "" is an escaped quote
          this.content(char);
        } else {
          this.outsideQuotes(char);
        }
        break;
      case Syntax.FieldStart:
        if (char === QUOTE) this.syntax = Syntax.Quoted;
        else this.outsideQuotes(char);
        break;
      case Syntax.Unquoted:
        this.outsideQuotes(char);
        break;
    }
    if (char === LF) this.line++;
  }

  private outsideQuotes(char: number): void {
    if (char === this.delimiter || char === CR || char === LF) {
      this.syntax = Syntax.FieldStart;
      this.cell = Cell.Leading;
      this.fieldLine = char === LF ? this.line + 1 : this.line;
    } else {
      this.syntax = Syntax.Unquoted;
      this.content(char);
    }
  }

  /** One character of the current field's content, quotes included. */
  private content(char: number): void {
    if (this.cell === Cell.Leading) {
      if (FILLER.has(char)) return;
      if (char === EQUALS || char === AT) this.found();
      else if (char === PLUS || char === MINUS) {
        this.cell = Cell.SignedNumber;
        this.afterSeparator = false;
      } else this.cell = Cell.Plain;
    } else if (this.cell === Cell.SignedNumber) {
      this.signedNumber(char);
    }
  }

  /**
   * After another reading's delimiter, a new signed number may begin; anything else there starts
   * what that reading judges as its own field (`-,x` read on `;` is no formula: `=-,x` does not
   * parse). An operator right after the digits (`-2+3+cmd|...`) is a formula.
   */
  private signedNumber(char: number): void {
    if (SPREADSHEET_DELIMITERS.includes(char)) this.afterSeparator = true;
    else if (isNumberPart(char)) this.afterSeparator &&= char === 0x20;
    else if (!this.afterSeparator) this.found();
    else if (char === PLUS || char === MINUS) this.afterSeparator = false;
    else this.cell = Cell.Plain;
  }

  private found(): void {
    this.cell = Cell.Formula;
    if (this.count++ === 0) this.firstLine = this.fieldLine;
  }
}

/** Digits, decimal and grouping separators and spaces: what follows the sign of a number. */
function isNumberPart(char: number): boolean {
  return (char >= 0x30 && char <= 0x39) || char === 0x2e || char === 0x2c || char === 0x20;
}
