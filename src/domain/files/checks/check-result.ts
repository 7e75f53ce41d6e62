/** Names of the checks a scan can run; each appears at most once in a scan outcome. */
export type CheckName =
  | "magic_bytes"
  | "image_dimensions"
  | "image_structure"
  | "svg_safety"
  | "pdf_structure"
  | "csv_structure"
  | "csv_formula_cells"
  | "pdf_active_content"
  | "office_structure"
  /** The malware engine's verdict (src/domain/files/malware/malware-check.ts); not run by scanFile. */
  | "malware_scan";

/** Every machine reason a failed check can carry. Stable: audit records and clients key on them. */
export type ScanReason =
  // any type
  | "UNSUPPORTED_CONTENT_TYPE"
  | "EMPTY_FILE"
  | "MAGIC_MISMATCH"
  | "INTERNAL_CHECK_ERROR"
  // raster images
  | "DIMENSIONS_UNREADABLE"
  | "DIMENSIONS_TOO_LARGE"
  | "TRAILING_DATA"
  | "IMAGE_TRUNCATED"
  | "IMAGE_ACTIVE_TEXT"
  | "IMAGE_MALFORMED"
  // SVG
  | "SVG_TOO_LARGE"
  | "SVG_PARSE_ERROR"
  | "SVG_NOT_SVG"
  | "SVG_DOCTYPE"
  | "SVG_PROCESSING_INSTRUCTION"
  | "SVG_SCRIPT"
  | "SVG_EVENT_HANDLER"
  | "SVG_JAVASCRIPT_URL"
  | "SVG_DATA_URL"
  | "SVG_FOREIGN_OBJECT"
  | "SVG_FORBIDDEN_ELEMENT"
  | "SVG_EXTERNAL_REFERENCE"
  | "SVG_TOO_DEEP"
  | "SVG_TOO_MANY_ELEMENTS"
  | "SVG_CSS_TOO_LARGE"
  // PDF
  | "PDF_INVALID_HEADER"
  | "PDF_MISSING_EOF"
  | "PDF_POLYGLOT"
  | "PDF_JAVASCRIPT"
  | "PDF_LAUNCH_ACTION"
  | "PDF_EMBEDDED_FILE"
  | "PDF_XFA"
  | "PDF_OBJECT_STREAM_UNREADABLE"
  | "PDF_INFLATION_TOO_LARGE"
  // CSV
  | "CSV_EMPTY"
  | "CSV_INVALID_UTF8"
  | "CSV_NUL_BYTE"
  | "CSV_AMBIGUOUS_DELIMITER"
  | "CSV_RAGGED_ROWS"
  | "CSV_UNBALANCED_QUOTES"
  | "CSV_INVALID_LINE_BREAK"
  | "CSV_FORMULA_CELLS"
  // XLS / XLSX
  | "OFFICE_CORRUPT"
  | "OFFICE_NOT_SPREADSHEET"
  | "OFFICE_MACROS"
  | "OFFICE_EXTERNAL_LINKS"
  | "OFFICE_EMBEDDED_OBJECT"
  | "OFFICE_EXPANSION_TOO_LARGE"
  | "OFFICE_ENCRYPTED"
  // malware engine
  | "MALWARE_DETECTED"
  | "MALWARE_SCAN_TOO_LARGE";

/**
 * The verdict of one check. A failed check always has a reason and a human-readable message. A
 * passed check with a reason is a finding the object class accepts (see ContentPolicy): it is
 * reported, through the same fields, without refusing the file.
 */
export interface CheckResult {
  name: CheckName;
  passed: boolean;
  reason?: ScanReason;
  message?: string;
}

export function passed(name: CheckName): CheckResult {
  return { name, passed: true };
}

export function failed(name: CheckName, reason: ScanReason, message: string): CheckResult {
  return { name, passed: false, reason, message };
}

/** A finding the class policy either refuses or only reports. */
export function finding(name: CheckName, reason: ScanReason, message: string, disposition: "reject" | "flag"): CheckResult {
  return disposition === "reject" ? failed(name, reason, message) : { name, passed: true, reason, message };
}
