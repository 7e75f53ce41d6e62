import type { ByteSource } from "./byte-source.js";
import { failed, type CheckName, type CheckResult } from "./check-result.js";
import { CONTENT_TYPES, canonicalContentType, type ContentType } from "./content-types.js";
import { checkCsvStructure } from "./csv-structure.js";
import { checkImageDimensions, DEFAULT_MAX_DIMENSION } from "./image-dimensions.js";
import { checkImageStructure } from "./image-structure.js";
import { checkMagicBytes, MAGIC_HEAD_BYTES } from "./magic-bytes.js";
import { MeteredSource } from "./metered-source.js";
import { checkOfficeStructure } from "./office-structure.js";
import { checkPdfStructure } from "./pdf-structure.js";
import { checkSvgSafety, DEFAULT_MAX_SVG_BYTES } from "./svg-safety.js";

export interface ScanOptions {
  /** Called with the running total each time bytes arrive from the source. */
  onProgress?(bytesRead: number): void;
  /** Largest width and height allowed for raster images; default 8192. */
  maxDimension?: number;
  /** Largest SVG accepted; default 5 MB. */
  maxSvgBytes?: number;
}

export interface ScanOutcome {
  /** True only when at least one check ran and every check that ran passed. */
  passed: boolean;
  /** The checks that ran, in order. A check that is absent did not run (see scanFile). */
  checks: CheckResult[];
  /** Bytes delivered by the source during this scan, counted where they enter. */
  bytesRead: number;
}

type Check = (type: ContentType, source: ByteSource, options: ScanOptions) => Promise<CheckResult>;

const CHECKS: Record<Exclude<CheckName, "magic_bytes">, Check> = {
  image_dimensions: (type, source, options) =>
    checkImageDimensions(type, source, options.maxDimension ?? DEFAULT_MAX_DIMENSION),
  image_structure: (type, source) => checkImageStructure(type, source),
  svg_safety: (_type, source, options) => checkSvgSafety(source, options.maxSvgBytes ?? DEFAULT_MAX_SVG_BYTES),
  pdf_structure: (_type, source) => checkPdfStructure(source),
  csv_structure: (_type, source) => checkCsvStructure(source),
  office_structure: (type, source) => checkOfficeStructure(type, source),
};

/** The checks that follow magic_bytes for each type. SVG dimensions are not bounded: it is vector. */
const PLAN: Record<ContentType, (keyof typeof CHECKS)[]> = {
  [CONTENT_TYPES.jpeg]: ["image_dimensions"],
  [CONTENT_TYPES.png]: ["image_dimensions", "image_structure"],
  [CONTENT_TYPES.webp]: ["image_dimensions", "image_structure"],
  [CONTENT_TYPES.svg]: ["svg_safety"],
  [CONTENT_TYPES.pdf]: ["pdf_structure"],
  [CONTENT_TYPES.csv]: ["csv_structure"],
  [CONTENT_TYPES.xls]: ["office_structure"],
  [CONTENT_TYPES.xlsx]: ["office_structure"],
};

/** Types whose checks read a bounded head and tail of the file, whatever its size. */
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
 * passing the file. Only errors thrown by `source` propagate, unchanged, so the caller can retry.
 */
export async function scanFile(declaredContentType: string, source: ByteSource, options: ScanOptions = {}): Promise<ScanOutcome> {
  const metered = new MeteredSource(source, MAGIC_HEAD_BYTES, options.onProgress);
  const type = canonicalContentType(declaredContentType);
  const checks: CheckResult[] = [];
  if (!type) {
    checks.push(failed("magic_bytes", "UNSUPPORTED_CONTENT_TYPE", `${JSON.stringify(declaredContentType)} is not a supported content type`));
    return outcome(checks, metered);
  }
  const magic = await guarded("magic_bytes", metered, () => checkMagicBytes(type, metered));
  checks.push(magic);
  if (magic.passed) {
    for (const name of PLAN[type]) {
      checks.push(await guarded(name, metered, () => CHECKS[name](type, metered, options)));
    }
  }
  return outcome(checks, metered);
}

/** Runs one check, turning anything but a storage error into a failed check. */
async function guarded(name: CheckName, source: MeteredSource, run: () => Promise<CheckResult>): Promise<CheckResult> {
  try {
    return await run();
  } catch (error) {
    if (source.isSourceError(error)) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    return failed(name, "INTERNAL_CHECK_ERROR", `the check could not complete: ${detail}`);
  }
}

function outcome(checks: CheckResult[], source: MeteredSource): ScanOutcome {
  return {
    passed: checks.length > 0 && checks.every((check) => check.passed),
    checks,
    bytesRead: source.bytesRead,
  };
}
