/**
 * Errors are values with a stable machine reason. They never carry a transport status: the one
 * table in src/rpc/error-codes.ts maps each reason to a Connect code.
 */
export type ErrorReason =
  // generic
  | "VALIDATION_FAILED"
  | "MALFORMED_REQUEST"
  | "UNAUTHENTICATED"
  | "PERMISSION_DENIED"
  | "DEPENDENCY_UNAVAILABLE"
  | "RATE_LIMITED"
  | "INTERNAL"
  | "DEADLINE_EXCEEDED"
  // file storage
  | "UNKNOWN_OBJECT_CLASS"
  | "FILE_TOO_LARGE"
  | "CONTENT_TYPE_NOT_ALLOWED"
  | "INVALID_FILENAME"
  | "FILENAME_EXTENSION_MISMATCH"
  | "UPLOAD_URL_EXPIRED"
  | "UPLOAD_MISSING"
  | "SIZE_MISMATCH"
  | "CHECKSUM_MISMATCH"
  | "UPLOAD_NOT_PENDING"
  | "OBJECT_NOT_FOUND"
  | "OBJECT_NOT_READY"
  | "OBJECT_QUARANTINED"
  | "OBJECT_NOT_SUPERSEDED"
  | "LEGAL_HOLD_ACTIVE"
  | "LEGAL_HOLD_NOT_ACTIVE"
  | "PENDING_UPLOAD_LIMIT_REACHED"
  // custom fields
  | "FIELD_DEFINITION_NOT_FOUND"
  | "FIELD_KEY_EXISTS"
  | "FIELD_KEY_IMMUTABLE"
  | "VERSION_CONFLICT"
  | "INVALID_FORMULA"
  | "FORMULA_CYCLE"
  | "FORMULA_LIMIT_EXCEEDED"
  | "UNSAFE_PATTERN"
  | "INVALID_FILTER"
  | "UNKNOWN_FILTER_FIELD"
  | "UNKNOWN_FILTER_OPERATOR"
  | "CUSTOM_FIELD_VALIDATION_FAILED"
  | "INDEXED_FIELD_LIMIT_REACHED"
  | "FIELD_DEFINITION_LIMIT_REACHED"
  // customers
  | "CUSTOMER_NOT_FOUND"
  // products
  | "PRODUCT_NOT_FOUND"
  // webhooks
  | "WEBHOOK_ENDPOINT_NOT_FOUND"
  | "WEBHOOK_URL_NOT_ALLOWED"
  | "WEBHOOK_ENDPOINT_LIMIT_REACHED"
  | "UNKNOWN_EVENT_TYPE"
  // audit trail
  | "AUDIT_CHAIN_BROKEN";

/** One problem with one field of a request: the field path as the client sent it. */
export interface FieldViolation {
  field: string;
  description: string;
  /** The rule that made the field required, when one did. */
  rule?: string;
}

export interface AppErrorOptions {
  violations?: FieldViolation[];
  metadata?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly violations: FieldViolation[];
  readonly metadata: Record<string, string>;

  constructor(
    readonly reason: ErrorReason,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.violations = options.violations ?? [];
    this.metadata = options.metadata ?? {};
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** An invalid-argument error listing every violation at once. */
export function validationFailed(
  violations: FieldViolation[],
  reason: ErrorReason = "VALIDATION_FAILED",
): AppError {
  const summary = violations.map((v) => `${v.field}: ${v.description}`).join("; ");
  return new AppError(reason, summary || "validation failed", { violations });
}
