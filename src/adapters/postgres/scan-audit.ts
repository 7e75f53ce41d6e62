import type { ScanResultView } from "../../domain/files/stored-object.js";

/**
 * A scan's audit entry (SCAN_PASSED / SCAN_FAILED) details, which the webhook event carries too:
 * the failed checks and, where the malware engine ran, its verdict with the signature and the
 * engine and database versions.
 */
export function scanAuditDetails(result: ScanResultView): Record<string, unknown> {
  const failed = result.checks.filter((c) => !c.passed).map((c) => ({ check: c.name, reason: c.reason }));
  return result.malware ? { failed, malware: result.malware } : { failed };
}
