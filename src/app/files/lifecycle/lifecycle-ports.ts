import type { OfficeLimits } from "../../../domain/files/checks/office-limits.js";
import type { PdfInflationLimits } from "../../../domain/files/checks/pdf-streams.js";
import type { SvgLimits } from "../../../domain/files/checks/svg-safety.js";
import type { ObjectRef } from "../../../domain/files/object-ref.js";
import type { ObjectStorage } from "../../../domain/files/object-storage.js";
import type { RetentionDurations } from "../../../domain/files/retention.js";
import type { StoredObjects } from "../port.js";

/** What the lifecycle steps (run by the object's workflow as activities) need. */
export interface LifecyclePorts {
  objects: StoredObjects;
  storage: ObjectStorage;
  retention: RetentionDurations;
  /** Largest image or PDF that complete scans itself; larger ones go to the scan activity. */
  inlineScanMaxBytes: number;
  /** Bounds on an XLSX's declared uncompressed size (config scan.office*); default DEFAULT_OFFICE_LIMITS. */
  officeLimits?: OfficeLimits;
  /** What a PDF's object streams may inflate to (config scan.pdf*); default DEFAULT_PDF_INFLATION_LIMITS. */
  pdfLimits?: PdfInflationLimits;
  /** Size, depth and element count allowed in an SVG (config scan.svg*); default DEFAULT_SVG_LIMITS. */
  svgLimits?: SvgLimits;
  /** Re-arms another object's retention timer (signal-with-start of its workflow). */
  retentionChanged(ref: ObjectRef): Promise<void>;
  now(): Date;
}
