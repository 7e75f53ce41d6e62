/** The columns of a CSV audit export, in order. */
export const AUDIT_CSV_COLUMNS = [
  "id",
  "occurred_at",
  "action",
  "result",
  "actor_id",
  "request_id",
  "correlation_id",
  "object_id",
  "object_class",
  "owner_type",
  "owner_id",
  "details",
  // The entry's place in its tenant's hash chain; a CSV export carries no canonical form and no
  // checkpoints, so it cannot be verified (the NDJSON export can).
  "chain_sequence",
  "chain_hash",
] as const;

export type AuditCsvRow = Record<(typeof AUDIT_CSV_COLUMNS)[number], string>;

/** Characters after which a spreadsheet may start a new cell: any delimiter it may choose, or a line break. */
const CELL_BOUNDARIES = new Set([",", ";", "\t", "|", "\r", "\n"]);
/** Skipped by spreadsheets before they decide whether a cell is a formula. */
const FILLER = new Set([" ", "\t", "\r", "\n", '"']);
const FORMULA_PREFIXES = new Set(["=", "+", "-", "@"]);
const APOSTROPHE = "'";

/**
 * One cell of an export: always quoted (RFC 4180, quotes doubled), with every formula defused.
 * Actor ids, reasons and details come from callers, and an export is opened by people in
 * spreadsheet programs, which may split it on `;`, tab or `|` (by locale or by sniffing) rather
 * than `,`, and honour quotes differently: the hold reason `x;=cmd|...;y` is one quoted cell to
 * a `,` reader and a formula cell to a `;` reader. So wherever any reader could start a cell (the
 * value's start, and after each `,` `;` tab `|` CR or LF in it), a formula is defused: when the
 * first character that counts there (after spaces, tabs, line breaks and quotes) is `=`, `+`,
 * `-` or `@`, an apostrophe goes right before it and the spreadsheet reads text. A value that
 * starts with a tab or CR gets one in front as well. The apostrophes are visible in the cell:
 * NDJSON is the lossless export.
 */
export function csvField(value: string): string {
  return `"${defuseFormulas(value).replaceAll('"', '""')}"`;
}

/** One pass, so the cost is linear whatever the value holds. */
function defuseFormulas(value: string): string {
  let out = value.startsWith("\t") || value.startsWith("\r") ? APOSTROPHE : "";
  let atCellStart = true;
  for (const char of value) {
    if (atCellStart && FORMULA_PREFIXES.has(char)) {
      out += APOSTROPHE;
      atCellStart = false;
    } else if (CELL_BOUNDARIES.has(char)) {
      atCellStart = true;
    } else if (!FILLER.has(char)) {
      atCellStart = false;
    }
    out += char;
  }
  return out;
}

export function csvHeader(): string {
  return `${AUDIT_CSV_COLUMNS.map(csvField).join(",")}\r\n`;
}

export function csvLine(row: AuditCsvRow): string {
  return `${AUDIT_CSV_COLUMNS.map((column) => csvField(row[column])).join(",")}\r\n`;
}
