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
] as const;

export type AuditCsvRow = Record<(typeof AUDIT_CSV_COLUMNS)[number], string>;

/**
 * One RFC 4180 field. A value a spreadsheet would run as a formula (leading `=`, `+`, `-`, `@`,
 * tab or carriage return) gets a leading apostrophe: actor ids and details come from callers,
 * and an export is opened by people in spreadsheet programs.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvHeader(): string {
  return `${AUDIT_CSV_COLUMNS.join(",")}\r\n`;
}

export function csvLine(row: AuditCsvRow): string {
  return `${AUDIT_CSV_COLUMNS.map((column) => csvField(row[column])).join(",")}\r\n`;
}
