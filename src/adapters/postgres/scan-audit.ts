import type { ScanResultView } from "../../domain/files/stored-object.js";

/** The failed checks as a scan's audit entry records them. */
export function failedChecks(result: ScanResultView): { check: string; reason?: string }[] {
  return result.checks.filter((c) => !c.passed).map((c) => ({ check: c.name, reason: c.reason }));
}
