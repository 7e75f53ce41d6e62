import type { LifecycleWake } from "../port.js";
import type { LifecyclePorts } from "./deps.js";

/**
 * Objects whose deadline changed beside the one a step worked on (superseded by a replacement,
 * or current again after a restore): their workflows re-arm their timers. Repeats are harmless.
 */
export async function announceRetentionChanges(
  ports: Pick<LifecyclePorts, "retentionChanged">,
  tenantId: string,
  objectIds: string[],
  why: LifecycleWake,
): Promise<void> {
  for (const objectId of objectIds) await ports.retentionChanged({ tenantId, objectId }, why);
}
