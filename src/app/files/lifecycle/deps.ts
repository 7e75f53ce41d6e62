import type { EngineVersion } from "../../../domain/files/malware/malware-verdict.js";
import type { OfficeLimits } from "../../../domain/files/checks/office-limits.js";
import type { PdfInflationLimits } from "../../../domain/files/checks/pdf-streams.js";
import type { SvgLimits } from "../../../domain/files/checks/svg-safety.js";
import type { ObjectRef } from "../../../domain/files/object-ref.js";
import type { RetentionDurations } from "../../../domain/files/retention.js";
import type { LifecycleWake, ObjectStorage } from "../port.js";
import type { LifecycleObjects, MalwareScanner } from "./port.js";

/** What the lifecycle steps (run by the object's workflow as activities) need; wired in src/main. */
export interface LifecyclePorts {
  objects: LifecycleObjects;
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
  /**
   * The malware engine every scan streams the object to, beside the content checks. Absent only in
   * development mode without clamd (the worker refuses to start without it otherwise).
   */
  malware?: MalwareEngine;
  /** Told how many incomplete multipart uploads an expiry aborted (counted for /metrics); absent where nothing is counted. */
  multipartAborted?(count: number): Promise<void>;
  /** Re-arms another object's retention timer (signal-with-start of its workflow). */
  retentionChanged(ref: ObjectRef, why: LifecycleWake): Promise<void>;
  now(): Date;
}

export interface MalwareEngine {
  scanner: MalwareScanner;
  /** The engine's version, cached briefly (engine-version-cache.ts). */
  version(): Promise<EngineVersion>;
  /** Told of each scan attempt that failed on the engine (the object stays SCANNING): the log line. */
  unavailable(ref: ObjectRef, error: unknown): void;
}
