import { Code } from "@connectrpc/connect";
import type { ErrorReason } from "../domain/errors.js";

/**
 * The one table that maps domain reasons to Connect codes. HTTP statuses then follow Connect's
 * code-to-status mapping, which gives the specification's table (400, 403, 404, 409).
 */
export const reasonCodes: Record<ErrorReason, Code> = {
  VALIDATION_FAILED: Code.InvalidArgument,
  MALFORMED_REQUEST: Code.InvalidArgument,
  UNAUTHENTICATED: Code.Unauthenticated,
  PERMISSION_DENIED: Code.PermissionDenied,
  DEPENDENCY_UNAVAILABLE: Code.Unavailable,
  RATE_LIMITED: Code.ResourceExhausted,
  INTERNAL: Code.Internal,
  DEADLINE_EXCEEDED: Code.DeadlineExceeded,
  UNKNOWN_OBJECT_CLASS: Code.InvalidArgument,
  FILE_TOO_LARGE: Code.InvalidArgument,
  CONTENT_TYPE_NOT_ALLOWED: Code.InvalidArgument,
  INVALID_FILENAME: Code.InvalidArgument,
  FILENAME_EXTENSION_MISMATCH: Code.InvalidArgument,
  UPLOAD_URL_EXPIRED: Code.InvalidArgument,
  UPLOAD_MISSING: Code.InvalidArgument,
  SIZE_MISMATCH: Code.InvalidArgument,
  CHECKSUM_MISMATCH: Code.InvalidArgument,
  UPLOAD_NOT_PENDING: Code.FailedPrecondition,
  OBJECT_NOT_FOUND: Code.NotFound,
  OBJECT_NOT_READY: Code.FailedPrecondition,
  OBJECT_QUARANTINED: Code.FailedPrecondition,
  OBJECT_NOT_SUPERSEDED: Code.FailedPrecondition,
  LEGAL_HOLD_ACTIVE: Code.PermissionDenied,
  LEGAL_HOLD_NOT_ACTIVE: Code.FailedPrecondition,
  PENDING_UPLOAD_LIMIT_REACHED: Code.ResourceExhausted,
  FIELD_DEFINITION_NOT_FOUND: Code.NotFound,
  FIELD_KEY_EXISTS: Code.AlreadyExists,
  FIELD_KEY_IMMUTABLE: Code.InvalidArgument,
  VERSION_CONFLICT: Code.Aborted,
  INVALID_FORMULA: Code.InvalidArgument,
  FORMULA_CYCLE: Code.InvalidArgument,
  FORMULA_LIMIT_EXCEEDED: Code.InvalidArgument,
  UNSAFE_PATTERN: Code.InvalidArgument,
  INVALID_FILTER: Code.InvalidArgument,
  UNKNOWN_FILTER_FIELD: Code.InvalidArgument,
  UNKNOWN_FILTER_OPERATOR: Code.InvalidArgument,
  CUSTOM_FIELD_VALIDATION_FAILED: Code.InvalidArgument,
  // A cap on shared index builds rather than a tenant's quota: a retry cannot help, only
  // unmarking or deleting a field does.
  INDEXED_FIELD_LIMIT_REACHED: Code.FailedPrecondition,
  FIELD_DEFINITION_LIMIT_REACHED: Code.ResourceExhausted,
  CUSTOMER_NOT_FOUND: Code.NotFound,
  PRODUCT_NOT_FOUND: Code.NotFound,
  WEBHOOK_ENDPOINT_NOT_FOUND: Code.NotFound,
  WEBHOOK_URL_NOT_ALLOWED: Code.InvalidArgument,
  // Per-tenant quotas are ResourceExhausted (429), as AIP-193 and gRPC name a quota, with a reason
  // of their own (src/domain/quotas.ts); the reason and its metadata say that freeing a place (a
  // delete, an upload completed or expired) helps, not waiting.
  WEBHOOK_ENDPOINT_LIMIT_REACHED: Code.ResourceExhausted,
  UNKNOWN_EVENT_TYPE: Code.InvalidArgument,
  // No checkpoint is signed over a chain that does not verify: nothing the caller can retry, an
  // operator has to look at the rows named.
  AUDIT_CHAIN_BROKEN: Code.FailedPrecondition,
};

/** Connect codes whose errors carry no stable domain reason get one derived from the code. */
export function reasonForCode(code: Code): string {
  return Code[code].replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}

/**
 * Errors the Connect runtime raises itself while it reads a request, before any interceptor sees
 * the call, carry no reason; the front door gives them one (src/rpc/front-door/wire-errors.ts).
 * A body over the limit is the REST 413's RESOURCE_EXHAUSTED; a body that does not decode
 * (malformed JSON, an unknown key, a broken envelope) is MALFORMED_REQUEST.
 */
export function reasonForRuntimeError(code: Code): string {
  return code === Code.InvalidArgument ? "MALFORMED_REQUEST" : reasonForCode(code);
}

/**
 * The front door's own refusals, with the code each protocol's clients derive: an unknown
 * procedure is unimplemented everywhere (Connect 404, gRPC and gRPC-Web status 12). A content
 * type or HTTP method a Connect procedure does not take answers 415 or 405, which Connect clients
 * (and the conformance suite) read as unknown, so the body says the same.
 */
export const frontDoorCodes = {
  UNKNOWN_PROCEDURE: Code.Unimplemented,
  UNSUPPORTED_MEDIA_TYPE: Code.Unknown,
  METHOD_NOT_ALLOWED: Code.Unknown,
} as const;
export type FrontDoorReason = keyof typeof frontDoorCodes;
