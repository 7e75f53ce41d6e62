import type { ByteSource } from "./byte-source.js";
import { failed, passed, type CheckResult, type ScanReason } from "./check-result.js";
import type { Disposition } from "./content-policy.js";
import { FormulaCells, SPREADSHEET_DELIMITERS } from "./csv-formula-cells.js";

const NAME = "csv_structure";

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** Delimiters we recognize. The first is RFC 4180's, assumed for a single-column file. */
const CANDIDATE_DELIMITERS = SPREADSHEET_DELIMITERS;

/** Parser states, as plain numbers to keep the per-character loop cheap. */
const State = {
  FieldStart: 0,
  Unquoted: 1,
  Quoted: 2,
  /** A quote inside a quoted field: either the first half of "" or the closing quote. */
  QuoteInQuoted: 3,
  /** A CR outside quotes, which must be followed by LF. */
  AfterCr: 4,
} as const;
type State = (typeof State)[keyof typeof State];

/**
 * Validates CSV incrementally (RFC 4180 plus a choice of delimiter) in constant memory: push()
 * each chunk as it arrives, then finish(). Only counters and a parser state are kept, never a
 * row, so a 50 MB file costs the same memory as a 50-byte one.
 *
 * Rules: UTF-8 (a leading BOM is allowed), no NUL byte, CRLF or LF line breaks, one delimiter
 * among `,` `;` tab `|` chosen from the first record (the most frequent outside quotes; a tie is
 * ambiguous), every record has the first record's field count, quotes open only at the start of
 * a field, close before a delimiter or line break, and are escaped by doubling. Empty lines are
 * ignored.
 */
export class CsvStructureChecker {
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  private failure: CheckResult | undefined;
  private state: State = State.FieldStart;
  private bytesSeen = 0;
  private line = 1;
  private recordLine = 1;
  private records = 0;
  private delimiter: number | undefined;
  /** Per candidate delimiter, its occurrences outside quotes in the first record. */
  private readonly firstRecordCounts = CANDIDATE_DELIMITERS.map(() => 0);
  private expectedFields = 0;
  private fields = 1;
  private recordLength = 0;
  /** Cells a spreadsheet would evaluate, under any delimiter; counted on the same pass. */
  private readonly formulaCells = new FormulaCells();

  /** Feeds the next chunk. Returns false once the file has failed (further input is ignored). */
  push(chunk: Uint8Array): boolean {
    if (this.failure) return false;
    const nul = chunk.indexOf(0);
    if (nul >= 0) return this.fail("CSV_NUL_BYTE", `NUL byte at offset ${this.bytesSeen + nul}`);
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: true });
    } catch {
      return this.fail("CSV_INVALID_UTF8", `invalid UTF-8 in the chunk at bytes ${this.bytesSeen}-${this.bytesSeen + chunk.length}`);
    }
    this.bytesSeen += chunk.length;
    this.consume(text);
    return !this.failure;
  }

  /** Ends the input and gives the verdict. */
  finish(): CheckResult {
    if (this.failure) return this.failure;
    let rest: string;
    try {
      rest = this.decoder.decode();
    } catch {
      rest = "";
      this.fail("CSV_INVALID_UTF8", "the file ends inside a UTF-8 sequence");
    }
    this.consume(rest);
    if (this.failure) return this.failure;
    if (this.state === State.Quoted) {
      this.fail("CSV_UNBALANCED_QUOTES", `the quoted field opened in the record at line ${this.recordLine} is never closed`);
    } else if (this.state === State.AfterCr) {
      this.fail("CSV_INVALID_LINE_BREAK", `line ${this.line} ends with a CR not followed by LF`);
    } else {
      this.endRecord();
    }
    if (!this.failure && this.records === 0) this.fail("CSV_EMPTY", "the file contains no records");
    return this.failure ?? passed(NAME);
  }

  private consume(text: string): void {
    for (let i = 0; i < text.length && !this.failure; i++) {
      const char = text.charCodeAt(i);
      this.formulaCells.push(char);
      this.step(char);
    }
  }

  private step(char: number): void {
    switch (this.state) {
      case State.AfterCr:
        if (char !== LF) {
          this.fail("CSV_INVALID_LINE_BREAK", `line ${this.line} ends with a CR not followed by LF`);
          return;
        }
        this.lineBreak();
        return;
      case State.Quoted:
        if (char === QUOTE) {
          this.state = State.QuoteInQuoted;
          return;
        }
        if (char === LF) this.line++;
        return;
      case State.QuoteInQuoted:
        if (char === QUOTE) {
          this.state = State.Quoted; // "" is an escaped quote
          return;
        }
        if (!this.isDelimiter(char) && char !== CR && char !== LF) {
          this.fail("CSV_UNBALANCED_QUOTES", `unexpected character after a closing quote on line ${this.line}`);
          return;
        }
        this.outsideQuotes(char);
        return;
      case State.FieldStart:
        if (char === QUOTE) {
          this.recordLength++;
          this.state = State.Quoted;
          return;
        }
        this.outsideQuotes(char);
        return;
      case State.Unquoted:
        if (char === QUOTE) {
          this.fail("CSV_UNBALANCED_QUOTES", `quote inside an unquoted field on line ${this.line}`);
          return;
        }
        this.outsideQuotes(char);
        return;
    }
  }

  /** A character outside quotes, after the state-specific cases: delimiter, line break or data. */
  private outsideQuotes(char: number): void {
    if (char === CR) {
      this.state = State.AfterCr;
    } else if (char === LF) {
      this.lineBreak();
    } else if (this.isDelimiter(char)) {
      this.countDelimiter(char);
      this.fields++;
      this.recordLength++;
      this.state = State.FieldStart;
    } else {
      this.recordLength++;
      this.state = State.Unquoted;
    }
  }

  /**
   * Until the first record ends the delimiter is unknown, so every candidate separates fields
   * (for deciding where a quote may open); the first record's counts then pick the delimiter.
   */
  private isDelimiter(char: number): boolean {
    return this.delimiter === undefined ? CANDIDATE_DELIMITERS.includes(char) : char === this.delimiter;
  }

  private countDelimiter(char: number): void {
    if (this.delimiter === undefined) this.firstRecordCounts[CANDIDATE_DELIMITERS.indexOf(char)]++;
  }

  private lineBreak(): void {
    this.endRecord();
    this.line++;
    this.recordLine = this.line;
    this.state = State.FieldStart;
  }

  private endRecord(): void {
    if (this.recordLength === 0 && this.fields === 1) return; // an empty line is not a record
    if (this.delimiter === undefined) this.chooseDelimiter();
    else if (this.fields !== this.expectedFields) {
      this.fail(
        "CSV_RAGGED_ROWS",
        `the record at line ${this.recordLine} has ${this.fields} fields, the first record has ${this.expectedFields}`,
      );
    }
    this.records++;
    this.fields = 1;
    this.recordLength = 0;
  }

  /** The most frequent candidate wins; none means a single-column file (RFC 4180's comma). */
  private chooseDelimiter(): void {
    const most = Math.max(...this.firstRecordCounts);
    const winners = CANDIDATE_DELIMITERS.filter((_, index) => this.firstRecordCounts[index] === most);
    if (most > 0 && winners.length > 1) {
      const names = winners.map((code) => JSON.stringify(String.fromCharCode(code))).join(" and ");
      this.fail("CSV_AMBIGUOUS_DELIMITER", `the first record uses ${names} equally often`);
      return;
    }
    this.delimiter = most === 0 ? CANDIDATE_DELIMITERS[0] : winners[0];
    this.expectedFields = most + 1;
  }

  /** csv_formula_cells: the cells a spreadsheet would evaluate, read with every delimiter. */
  formulaCellsResult(disposition: Disposition): CheckResult {
    return this.formulaCells.result(disposition, this.delimiter);
  }

  private fail(reason: ScanReason, message: string): false {
    this.failure ??= failed(NAME, reason, message);
    return false;
  }
}

/**
 * Streams the whole file through the checker, stopping at the first failure. Answers
 * csv_structure and csv_formula_cells (formula cells refused or only reported, per `formulaCells`);
 * after a structural failure the formula count covers the part read.
 */
export async function checkCsv(source: ByteSource, formulaCells: Disposition): Promise<CheckResult[]> {
  const checker = new CsvStructureChecker();
  for await (const chunk of source.stream()) {
    if (!checker.push(chunk)) break;
  }
  return [checker.finish(), checker.formulaCellsResult(formulaCells)];
}
