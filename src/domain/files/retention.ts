import { removalBlocked } from "./legal-hold.js";
import type { RetentionPolicyName } from "./object-classes.js";

/** Durations of the auto-cleanup policies, in seconds; configuration shortens them in tests. */
export interface RetentionDurations {
  tempUploadSeconds: number;
  failedUploadSeconds: number;
  supersededSeconds: number;
  importArtifactSeconds: number;
}

/** Policies that never expire by themselves. */
export const PERMANENT_POLICIES: readonly RetentionPolicyName[] = ["PERMANENT", "COMPLIANCE_ARCHIVE", "LEGAL_HOLD"];

export function policyDurationSeconds(policy: RetentionPolicyName, durations: RetentionDurations): number | undefined {
  switch (policy) {
    case "TEMP_UPLOAD_24H":
      return durations.tempUploadSeconds;
    case "FAILED_UPLOAD_7D":
      return durations.failedUploadSeconds;
    case "SUPERSEDED_30D":
      return durations.supersededSeconds;
    case "IMPORT_ARTIFACT_90D":
      return durations.importArtifactSeconds;
    default:
      return undefined;
  }
}

/** When an object under `policy` since `from` may be removed; undefined for never. */
export function retentionDeadline(policy: RetentionPolicyName, from: Date, durations: RetentionDurations): Date | undefined {
  const seconds = policyDurationSeconds(policy, durations);
  return seconds === undefined ? undefined : new Date(from.getTime() + seconds * 1000);
}

export interface ExpiryCandidate {
  status: string;
  retentionPolicy: RetentionPolicyName;
  retentionExpiresAt?: Date | null;
  legalHold: boolean;
  deleted: boolean;
}

/**
 * The cleanup rule: deadline reached, no hold (legal-hold.ts), not a permanent policy, not yet deleted, and not
 * a completed upload waiting for its scan (it is not abandoned, whatever its pending deadline).
 */
export function isExpired(candidate: ExpiryCandidate, now: Date): boolean {
  if (candidate.deleted || removalBlocked(candidate) || candidate.status === "SCANNING") return false;
  if (PERMANENT_POLICIES.includes(candidate.retentionPolicy)) return false;
  return !!candidate.retentionExpiresAt && candidate.retentionExpiresAt.getTime() <= now.getTime();
}
