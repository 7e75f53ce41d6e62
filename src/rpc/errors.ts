import { create, type DescMessage, type Message } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { AppError, isAppError } from "../domain/errors.js";
import { BadRequestSchema, ErrorInfoSchema } from "@files-and-fields/client/gen/google/rpc/error_details_pb.js";
import { reasonCodes, reasonForCode } from "./error-codes.js";

const ERROR_DOMAIN = "files-and-fields";

export function errorInfo(reason: string, metadata: Record<string, string> = {}) {
  return { desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { reason, domain: ERROR_DOMAIN, metadata }) };
}

function badRequest(error: AppError) {
  const fieldViolations = error.violations.map((v) => ({
    field: v.field,
    description: v.rule ? `${v.description} (required by rule "${v.rule}")` : v.description,
    reason: error.reason,
  }));
  return { desc: BadRequestSchema, value: create(BadRequestSchema, { fieldViolations }) };
}

function fromAppError(error: AppError, withErrorInfo: boolean): ConnectError {
  const details: { desc: DescMessage; value: Message }[] = withErrorInfo ? [errorInfo(error.reason, error.metadata)] : [];
  if (error.violations.length > 0) details.push(badRequest(error));
  return new ConnectError(error.message, reasonCodes[error.reason], undefined, details, error);
}

/**
 * Turns anything thrown by a handler into a ConnectError with an ErrorInfo detail. Unknown
 * errors become `internal` without leaking their message; the caller logs them. A ConnectError
 * that already carries details keeps exactly those: its thrower chose them (this code never
 * throws one: its errors are AppErrors, each with its ErrorInfo). `withErrorInfo: false` (a
 * mount whose service defines its errors to the byte: FrontDoorErrorOptions) adds none.
 */
export function toConnectError(error: unknown, withErrorInfo = true): ConnectError {
  if (isAppError(error)) return fromAppError(error, withErrorInfo);
  if (error instanceof ConnectError) {
    if (withErrorInfo && error.details.length === 0) error.details.push(errorInfo(reasonForCode(error.code)));
    return error;
  }
  return new ConnectError("internal error", Code.Internal, undefined, withErrorInfo ? [errorInfo("INTERNAL")] : [], error);
}
