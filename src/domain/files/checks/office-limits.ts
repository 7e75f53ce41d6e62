/**
 * Bounds on what an XLSX expands to: checked first against the sizes its directory declares,
 * then against the bytes its parts actually produce while they are inflated.
 */
export interface OfficeLimits {
  /** Largest uncompressed total over the file size. */
  maxExpansionRatio: number;
  /** Largest uncompressed total. */
  maxUncompressedBytes: number;
}

export const DEFAULT_OFFICE_LIMITS: OfficeLimits = { maxExpansionRatio: 100, maxUncompressedBytes: 1024 * 1024 * 1024 };
