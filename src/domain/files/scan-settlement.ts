import { classRules, type RetentionPolicyName } from "./object-classes.js";
import { retentionDeadline, type RetentionDurations } from "./retention.js";
import type { ObjectStatusName } from "./stored-object.js";
import { supersededDeadline } from "./supersession.js";

export interface ScanSettlement {
  status: Extract<ObjectStatusName, "READY" | "REJECTED">;
  retentionPolicy: RetentionPolicyName;
  retentionExpiresAt: Date | null;
  /** READY photos and logos become their owner's current file and supersede the previous one. */
  supersedes: boolean;
  /** Where the superseded file's new deadline lies, when `supersedes`. */
  supersededExpiresAt?: Date;
}

/** Where a scan leaves an object: READY under its class's policy, or REJECTED for 7 days. */
export function settleScan(objectClass: string, passed: boolean, now: Date, durations: RetentionDurations): ScanSettlement {
  const rules = classRules(objectClass);
  const retentionPolicy = passed ? rules.retention : "FAILED_UPLOAD_7D";
  const supersedes = passed && rules.replaceable;
  return {
    status: passed ? "READY" : "REJECTED",
    retentionPolicy,
    retentionExpiresAt: retentionDeadline(retentionPolicy, now, durations) ?? null,
    supersedes,
    supersededExpiresAt: supersedes ? supersededDeadline(now, durations) : undefined,
  };
}
