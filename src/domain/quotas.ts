import { AppError, type ErrorReason } from "./errors.js";

/**
 * Per-tenant quotas: one tenant may hold only so much of what all tenants share. A refusal is
 * `RESOURCE_EXHAUSTED` with a reason of its own and `quota`, `limit` in its ErrorInfo metadata;
 * each refusal is counted by quota (`quota_refusals_total`). Waiting helps only as far as the
 * tenant's own places free up (an upload completed or expired, a delivery ended, a delete).
 */
export type QuotaName = "pending_uploads" | "field_definitions" | "webhook_endpoints";

const QUOTA_REASONS = {
  pending_uploads: "PENDING_UPLOAD_LIMIT_REACHED",
  field_definitions: "FIELD_DEFINITION_LIMIT_REACHED",
  webhook_endpoints: "WEBHOOK_ENDPOINT_LIMIT_REACHED",
} as const satisfies Record<QuotaName, ErrorReason>;

/** The quota a refusal's reason names; undefined for any other reason. */
export function quotaOfReason(reason: string): QuotaName | undefined {
  for (const [quota, quotaReason] of Object.entries(QUOTA_REASONS)) if (quotaReason === reason) return quota as QuotaName;
  return undefined;
}

/** The refusal of one more of `quota` to a tenant that holds `limit` already. */
export function quotaExceeded(quota: QuotaName, limit: number, message: string, metadata: Record<string, string> = {}): AppError {
  return new AppError(QUOTA_REASONS[quota], message, { metadata: { ...metadata, quota, limit: String(limit) } });
}
