import { AppError } from "../errors.js";

/** S3's multipart rules: every part but the last at least 5 MiB, none above 5 GiB, at most 10,000 parts. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const MAX_PART_BYTES = 5 * 1024 * 1024 * 1024;
export const MAX_PARTS = 10_000;

/** How a multipart upload is cut: every part but the last has `partSize` bytes. */
export interface PartPlan {
  partSize: number;
  partCount: number;
}

/**
 * The plan for a declared size, or undefined below the threshold (one signed PUT). The configured
 * part size is raised (in whole MiB) when 10,000 parts would not hold the file.
 */
export function planParts(fileSize: number, thresholdBytes: number, partSizeBytes: number): PartPlan | undefined {
  if (fileSize < thresholdBytes) return undefined;
  const mib = 1024 * 1024;
  const fitting = Math.ceil(fileSize / MAX_PARTS / mib) * mib;
  const partSize = Math.min(MAX_PART_BYTES, Math.max(MIN_PART_BYTES, partSizeBytes, fitting));
  return { partSize, partCount: Math.max(1, Math.ceil(fileSize / partSize)) };
}

/**
 * The length of part `partNumber` (from 1) of a file of `fileSize` bytes cut in `partSize` parts:
 * what a client that only knows a part's number (Uppy's signRequest) declares when it signs it.
 * Undefined beyond the last part.
 */
export function partLength(fileSize: number, partSize: number, partNumber: number): number | undefined {
  const start = (partNumber - 1) * partSize;
  if (!Number.isInteger(partNumber) || partNumber < 1 || start >= fileSize) return undefined;
  return Math.min(partSize, fileSize - start);
}

/** A part a client asks to sign: its number and exact length. */
export interface PartRequest {
  partNumber: number;
  contentLength: number;
}

/**
 * A part the storage backend would refuse at completion is refused when it is signed: a number
 * beyond S3's 10,000 or a length above 5 GiB. Lengths are the client's (Uppy and others choose
 * their own part sizes); their sum is checked at complete.
 */
export function checkPartRequests(parts: readonly PartRequest[]): void {
  const seen = new Set<number>();
  for (const [index, part] of parts.entries()) {
    let problem: string | undefined;
    if (!Number.isInteger(part.partNumber) || part.partNumber < 1 || part.partNumber > MAX_PARTS) problem = `partNumber must be within 1..${MAX_PARTS}`;
    else if (!Number.isInteger(part.contentLength) || part.contentLength < 1 || part.contentLength > MAX_PART_BYTES) problem = `contentLength must be within 1..${MAX_PART_BYTES}`;
    else if (seen.has(part.partNumber)) problem = `partNumber ${part.partNumber} appears twice`;
    seen.add(part.partNumber);
    if (problem) throw new AppError("VALIDATION_FAILED", `parts[${index}]: ${problem}`, { violations: [{ field: `parts[${index}]`, description: problem }] });
  }
}

/** The parts storage holds add up to more than the class allows: refused before the upload is completed. */
export function checkPartsTotal(partSizes: readonly number[], maxBytes: number): number {
  const total = partSizes.reduce((sum, size) => sum + size, 0);
  if (total > maxBytes) {
    throw new AppError("FILE_TOO_LARGE", `the uploaded parts hold ${total} bytes, above the limit of ${maxBytes} bytes`, {
      metadata: { maxBytes: String(maxBytes) },
    });
  }
  return total;
}
