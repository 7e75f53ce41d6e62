import type { ByteSource } from "./byte-source.js";
import { failed, type CheckName, type CheckResult } from "./check-result.js";
import type { Checkpoint } from "./checkpoint.js";
import { CONTENT_TYPES, canonicalContentType, type ContentType } from "./content-types.js";
import { STRICT_CONTENT_POLICY, type ContentPolicy } from "./content-policy.js";
import { checkCsv } from "./csv-structure.js";
import { checkImageDimensions, DEFAULT_MAX_DIMENSION } from "./image-dimensions.js";
import { checkImageStructure } from "./image-structure.js";
import { checkMagicBytes, MAGIC_HEAD_BYTES } from "./magic-bytes.js";
import { MeteredSource } from "./metered-source.js";
import { DEFAULT_OFFICE_LIMITS, type OfficeLimits } from "./office-limits.js";
import { checkOfficeStructure } from "./office-structure.js";
import { checkPdfActiveContent } from "./pdf-active-content.js";
import { checkPdfStructure } from "./pdf-structure.js";
import type { PdfInflationLimits } from "./pdf-streams.js";
import { checkSvgSafety, DEFAULT_SVG_LIMITS, type SvgLimits } from "./svg-safety.js";

export interface ScanOptions {
  /** Called with the running total each time bytes arrive from the source. */
  onProgress?(bytesRead: number): void;
  /** Largest width and height allowed for raster images; default 8192. */
  maxDimension?: number;
  /** Size, nesting depth and element count allowed in an SVG; default DEFAULT_SVG_LIMITS. */
  svgLimits?: SvgLimits;
  /**
   * Awaited between bounded slices of work (each chunk of a stream, each slice of SVG text).
   * What it throws ends the scan and propagates unchanged, like a storage error.
   */
  checkpoint?: Checkpoint;
  /** The object class's policy (`classRules(...).contentPolicy`); default: every finding refuses. */
  contentPolicy?: ContentPolicy;
  /** Bounds on what an XLSX declares and inflates to; default DEFAULT_OFFICE_LIMITS. */
  officeLimits?: OfficeLimits;
  /** Bounds on what a PDF's object streams inflate to; default DEFAULT_PDF_INFLATION_LIMITS. */
  pdfLimits?: PdfInflationLimits;
}

export interface ScanOutcome {
  /** True only when at least one check ran and every check that ran passed. */
  passed: boolean;
  /** The checks that ran, in order. A check that is absent did not run (see scanFile). */
  checks: CheckResult[];
  /** Bytes delivered by the source during this scan, counted where they enter. */
  bytesRead: number;
}

/** A check answers its own result, or several when one pass serves more than one check. */
type Check = (type: ContentType, source: ByteSource, options: ScanOptions) => Promise<CheckResult | CheckResult[]>;

/** csv_formula_cells comes out of csv_structure's pass over the file; malware_scan is the engine's, beside the checks. */
const CHECKS: Record<Exclude<CheckName, "magic_bytes" | "csv_formula_cells" | "malware_scan">, Check> = {
  image_dimensions: (type, source, options) =>
    checkImageDimensions(type, source, options.maxDimension ?? DEFAULT_MAX_DIMENSION),
  image_structure: (type, source) => checkImageStructure(type, source),
  svg_safety: (_type, source, options) => checkSvgSafety(source, options.svgLimits ?? DEFAULT_SVG_LIMITS, options.checkpoint),
  pdf_structure: (_type, source) => checkPdfStructure(source),
  pdf_active_content: (_type, source, options) =>
    checkPdfActiveContent(source, (options.contentPolicy ?? STRICT_CONTENT_POLICY).pdfEmbeddedFiles, options.pdfLimits),
  csv_structure: (_type, source, options) => checkCsv(source, (options.contentPolicy ?? STRICT_CONTENT_POLICY).csvFormulaCells),
  office_structure: (type, source, options) => checkOfficeStructure(type, source, options.officeLimits ?? DEFAULT_OFFICE_LIMITS),
};

/** The checks that follow magic_bytes for each type. SVG dimensions are not bounded: it is vector. */
const PLAN: Record<ContentType, (keyof typeof CHECKS)[]> = {
  [CONTENT_TYPES.jpeg]: ["image_dimensions", "image_structure"],
  [CONTENT_TYPES.png]: ["image_dimensions", "image_structure"],
  [CONTENT_TYPES.webp]: ["image_dimensions", "image_structure"],
  [CONTENT_TYPES.svg]: ["svg_safety"],
  // The streamed pass first: its one read of the file then holds the tail the structure check reads.
  [CONTENT_TYPES.pdf]: ["pdf_active_content", "pdf_structure"],
  [CONTENT_TYPES.csv]: ["csv_structure"],
  [CONTENT_TYPES.xls]: ["office_structure"],
  [CONTENT_TYPES.xlsx]: ["office_structure"],
};

/**
 * Types complete may scan itself when small (SCAN_INLINE_MAX_BYTES): WebP checks read a bounded
 * head and tail; JPEG (its segments to EOI), PNG (its chunks) and PDF (its names) take one
 * streamed pass, which that size bounds.
 */
const BOUNDED_READS: ReadonlySet<ContentType> = new Set([CONTENT_TYPES.jpeg, CONTENT_TYPES.png, CONTENT_TYPES.webp, CONTENT_TYPES.pdf]);

/** Whether a scan of this type reads a bounded number of bytes (CSV, SVG and Office stream all). */
export function readsBoundedBytes(declaredContentType: string): boolean {
  const type = canonicalContentType(declaredContentType);
  return type !== undefined && BOUNDED_READS.has(type);
}

/**
 * Validates a stored file against its declared content type.
 *
 * magic_bytes runs first. When it fails (unsupported type, empty file, wrong signature) the
 * type-specific checks are not run and are absent from `checks`: their parsers would be reading
 * a different format than they were written for. Otherwise every check for the type runs, even
 * after one fails, so the outcome lists every problem found.
 *
 * Never throws because of content: every problem with the bytes is a failed check, and an
 * unexpected exception inside a check fails that check (INTERNAL_CHECK_ERROR) rather than
 * passing the file. Only errors thrown by `source` (the caller retries) or by the checkpoint (the
 * caller abandons the scan) propagate, unchanged.
 */
export async function scanFile(declaredContentType: string, source: ByteSource, options: ScanOptions = {}): Promise<ScanOutcome> {
  const metered = new MeteredSource(source, MAGIC_HEAD_BYTES, options.onProgress, options.checkpoint);
  const type = canonicalContentType(declaredContentType);
  const checks: CheckResult[] = [];
  if (!type) {
    checks.push(failed("magic_bytes", "UNSUPPORTED_CONTENT_TYPE", `${JSON.stringify(declaredContentType)} is not a supported content type`));
    return outcome(checks, metered);
  }
  const [magic] = await guarded("magic_bytes", metered, () => checkMagicBytes(type, metered));
  checks.push(magic);
  if (magic.passed) {
    for (const name of PLAN[type]) {
      checks.push(...(await guarded(name, metered, () => CHECKS[name](type, metered, { ...options, checkpoint: () => metered.pause() }))));
    }
  }
  return outcome(checks, metered);
}

/** Runs one check, turning anything but a storage error into a failed check. */
async function guarded(name: CheckName, source: MeteredSource, run: () => Promise<CheckResult | CheckResult[]>): Promise<CheckResult[]> {
  try {
    return [await run()].flat();
  } catch (error) {
    if (source.isSourceError(error)) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    return [failed(name, "INTERNAL_CHECK_ERROR", `the check could not complete: ${detail}`)];
  }
}

function outcome(checks: CheckResult[], source: MeteredSource): ScanOutcome {
  return {
    passed: checks.length > 0 && checks.every((check) => check.passed),
    checks,
    bytesRead: source.bytesRead,
  };
}
