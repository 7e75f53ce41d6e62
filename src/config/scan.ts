/**
 * Scan limits: a worker that dies mid-scan is noticed after the heartbeat timeout. Images and
 * PDFs up to `inlineMaxBytes` are scanned inside complete (their checks read a bounded head
 * and tail, or stream a file that size bounds); the rest by the scan activity. An XLSX whose
 * parts declare or inflate to more than `officeMaxUncompressedBytes`, or more than
 * `officeMaxExpansionRatio` times its own size, is refused (a ZIP bomb for the importer). A PDF
 * object stream that inflates past `pdfMaxObjectStreamBytes`, or object streams that together
 * pass `pdfMaxInflatedBytes`, refuse the PDF (their objects could not all be checked). An
 * SVG larger than `svgMaxBytes`, nested deeper than `svgMaxDepth`, with more than
 * `svgMaxElements` elements or with CSS longer than `svgMaxCssChars` in one style element or
 * attribute is refused (its scan then stays linear, in short synchronous steps).
 */
import type { Env } from "./env.js";
import { integer } from "./env-values.js";

export interface ScanConfig {
  timeoutSeconds: number;
  heartbeatTimeoutSeconds: number;
  inlineMaxBytes: number;
  officeMaxExpansionRatio: number;
  officeMaxUncompressedBytes: number;
  pdfMaxObjectStreamBytes: number;
  pdfMaxInflatedBytes: number;
  svgMaxBytes: number;
  svgMaxDepth: number;
  svgMaxElements: number;
  svgMaxCssChars: number;
}

export function parseScan(env: Env): ScanConfig {
  return {
    timeoutSeconds: integer(env, "SCAN_TIMEOUT_SECONDS", 600),
    heartbeatTimeoutSeconds: integer(env, "SCAN_HEARTBEAT_TIMEOUT_SECONDS", 30),
    inlineMaxBytes: integer(env, "SCAN_INLINE_MAX_BYTES", 16 * 1024 * 1024, 0),
    officeMaxExpansionRatio: integer(env, "SCAN_OFFICE_MAX_EXPANSION_RATIO", 100),
    officeMaxUncompressedBytes: integer(env, "SCAN_OFFICE_MAX_UNCOMPRESSED_BYTES", 1024 * 1024 * 1024),
    pdfMaxObjectStreamBytes: integer(env, "SCAN_PDF_MAX_OBJECT_STREAM_BYTES", 16 * 1024 * 1024, 1),
    pdfMaxInflatedBytes: integer(env, "SCAN_PDF_MAX_INFLATED_BYTES", 64 * 1024 * 1024, 1),
    svgMaxBytes: integer(env, "SCAN_SVG_MAX_BYTES", 5 * 1024 * 1024),
    svgMaxDepth: integer(env, "SCAN_SVG_MAX_DEPTH", 256),
    svgMaxElements: integer(env, "SCAN_SVG_MAX_ELEMENTS", 100_000),
    svgMaxCssChars: integer(env, "SCAN_SVG_MAX_CSS_CHARS", 128 * 1024),
  };
}

/** When a SCANNING object counts as stuck: the scan activity's whole budget plus a minute. */
export function scanDeadlineSeconds(config: { scan: Pick<ScanConfig, "timeoutSeconds"> }): number {
  return config.scan.timeoutSeconds + 60;
}
