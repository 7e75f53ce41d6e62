import { S3ServiceException } from "@aws-sdk/client-s3";
import { AppError } from "../../domain/errors.js";

export function isRangeNotSatisfiable(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 416 || error.name === "InvalidRange");
}

export function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === "NotFound" || error.name === "NoSuchKey");
}

/** Driver errors become domain errors, keeping the original as `cause`. */
export function translate(error: unknown, action: string): never {
  if (error instanceof AppError) throw error;
  const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
  const reason = status === undefined || status >= 500 ? "DEPENDENCY_UNAVAILABLE" : "INTERNAL";
  throw new AppError(reason, `object storage unavailable (${action}): ${(error as Error).message}`, { cause: error });
}
