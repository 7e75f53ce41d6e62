/** Public surface of the file validation checks. */
export type { ByteSource } from "./byte-source.js";
export type { CheckName, CheckResult, ScanReason } from "./check-result.js";
export { CONTENT_TYPES, normalizeContentType, type ContentType } from "./content-types.js";
export { CsvStructureChecker } from "./csv-structure.js";
export { DEFAULT_MAX_DIMENSION } from "./image-dimensions.js";
export { DEFAULT_MAX_SVG_BYTES } from "./svg-safety.js";
export { scanFile, type ScanOptions, type ScanOutcome } from "./scanner.js";
