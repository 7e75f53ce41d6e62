import type { AppError } from "../errors.js";
import { quotaExceeded } from "../quotas.js";

/** Refused rather than queued: every endpoint multiplies each event of its tenant into a delivery. */
export function endpointLimitReached(maxPerTenant: number): AppError {
  return quotaExceeded("webhook_endpoints", maxPerTenant, `a tenant may register at most ${maxPerTenant} webhook endpoints; delete one first`);
}
