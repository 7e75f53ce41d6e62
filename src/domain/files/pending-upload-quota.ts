import type { AppError } from "../errors.js";
import { quotaExceeded } from "../quotas.js";

/**
 * Every pending upload holds a workflow, an upload session and a signed URL until it completes or
 * its abandoned-upload deadline passes, so a tenant may hold only so many at once.
 */
export function pendingUploadLimitReached(maxPerTenant: number): AppError {
  return quotaExceeded(
    "pending_uploads",
    maxPerTenant,
    `a tenant may have at most ${maxPerTenant} uploads pending; complete some, or wait until abandoned ones expire`,
  );
}
