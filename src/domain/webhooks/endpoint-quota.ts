import { AppError } from "../errors.js";

/** Refused rather than queued: every endpoint multiplies each event of its tenant into a delivery. */
export function endpointLimitReached(maxPerTenant: number): AppError {
  return new AppError("WEBHOOK_ENDPOINT_LIMIT_REACHED", `a tenant may register at most ${maxPerTenant} webhook endpoints; delete one first`, {
    metadata: { limit: String(maxPerTenant) },
  });
}
